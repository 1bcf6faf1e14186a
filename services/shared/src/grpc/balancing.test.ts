import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { createLogger } from '../logger.js';
import { createGrpcClient } from './client.js';
import { startGrpcServer, type StartedGrpcServer } from './server.js';

const SERVICE = 'greenimpact.identity.v1.IdentityService';
const log = createLogger('balancing-test', { level: 'silent' });

/** A backend whose getGroups records who served it and from which client connection (the peer's port). */
async function backend(host: string, served: { by: string; peer: string }[], maxConnectionAgeMs?: number): Promise<StartedGrpcServer> {
  const implementation: UntypedServiceImplementation = {
    getGroups: (call: ServerUnaryCall<unknown, unknown>, done: sendUnaryData<unknown>) => {
      served.push({ by: host, peer: call.getPeer() });
      done(null, { groups: [] });
    },
  };
  return startGrpcServer({
    services: [{ name: SERVICE, definition: IdentityServiceService, implementation }],
    host,
    port: 0,
    protoRoot,
    protoFiles: [protoFiles.identity],
    log,
    ...(maxConnectionAgeMs === undefined ? {} : { maxConnectionAgeMs }),
  });
}

/**
 * Two backend processes behind one name, as a headless Service's DNS answer gives the gateway every ready
 * pod: here the name is grpc-js's static ipv4: list (127.0.0.1 and 127.0.0.2), resolved as a DNS answer
 * with two A records is, and the client's round_robin policy must use both.
 */
describe('gRPC clients spread calls over every address of a backend', () => {
  const served: { by: string; peer: string }[] = [];
  let a: StartedGrpcServer;
  let b: StartedGrpcServer;
  before(async () => {
    a = await backend('127.0.0.1', served);
    b = await backend('127.0.0.2', served);
  });
  after(async () => {
    await a.shutdown(200);
    await b.shutdown(200);
  });

  it('round robin: once both are connected, calls alternate between the two backends', async () => {
    const client = createGrpcClient(IdentityServiceService, `ipv4:127.0.0.1:${a.port},127.0.0.2:${b.port}`);
    try {
      // The first calls may all go to whichever backend connected first; within a few, both are in turn.
      for (let i = 0; i < 200 && new Set(served.map((s) => s.by)).size < 2; i++) await client.getGroups({});
      served.length = 0;
      for (let i = 0; i < 20; i++) await client.getGroups({});
      const count = (host: string) => served.filter((s) => s.by === host).length;
      assert.deepEqual([count('127.0.0.1'), count('127.0.0.2')], [10, 10]);
    } finally {
      client.close();
    }
  });
});

describe('gRPC servers limit a connection\'s age, so clients resolve again and find new pods', () => {
  it('after the age, the client\'s calls continue on a new connection with none failing', async () => {
    const served: { by: string; peer: string }[] = [];
    const server = await backend('127.0.0.1', served, 300);
    const client = createGrpcClient(IdentityServiceService, server.address);
    try {
      const deadline = Date.now() + 20_000;
      while (new Set(served.map((s) => s.peer)).size < 2) {
        assert.ok(Date.now() < deadline, `still one connection after ${served.length} calls`);
        await client.getGroups({});
      }
      assert.ok(served.length >= 2);
    } finally {
      client.close();
      await server.shutdown(200);
    }
  });
});
