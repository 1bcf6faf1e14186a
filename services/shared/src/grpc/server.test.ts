import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { credentials, loadPackageDefinition, status, type GrpcObject, type ServiceClientConstructor } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { createLogger } from '../logger.js';
import { NotFoundError } from '../errors.js';
import { createGrpcClient } from './client.js';
import { implement, startGrpcServer, type StartedGrpcServer } from './server.js';
import { loadGrpcServerSettings } from './server-settings.js';
import { envReader } from '../config.js';

const require = createRequire(import.meta.url);
const SERVICE = 'greenimpact.identity.v1.IdentityService';

function clientFor(protoPath: string, includeDir: string, pkgPath: string[], address: string): any {
  const def = loadSync(protoPath, { includeDirs: [includeDir], keepCase: true, enums: String });
  let obj: GrpcObject | ServiceClientConstructor = loadPackageDefinition(def);
  for (const p of pkgPath) obj = (obj as GrpcObject)[p] as GrpcObject;
  const Ctor = obj as unknown as ServiceClientConstructor;
  return new Ctor(address, credentials.createInsecure());
}

/** The services a server names through reflection (grpcurl list). */
function listServices(address: string): Promise<string[]> {
  const reflectionRoot = join(dirname(require.resolve('@grpc/reflection/package.json')), 'build/proto');
  const reflection = clientFor(join(reflectionRoot, 'grpc/reflection/v1/reflection.proto'), reflectionRoot, ['grpc', 'reflection', 'v1', 'ServerReflection'], address);
  const call = reflection.ServerReflectionInfo();
  return new Promise<string[]>((resolve, reject) => {
    call.on('data', (r: { list_services_response?: { service: { name: string }[] } }) => {
      resolve(r.list_services_response?.service.map((s) => s.name) ?? []);
      call.end();
    });
    call.on('error', reject);
    call.write({ list_services: '' });
  }).finally(() => reflection.close());
}

describe('gRPC server helper', () => {
  let server: StartedGrpcServer;
  let slowCalls = 0;
  const signals: AbortSignal[] = [];

  before(async () => {
    const log = createLogger('grpc-test');
    const impl = implement(SERVICE, IdentityServiceService, {
      async getGroups(_req, ctx) {
        if (!ctx.caller) throw new NotFoundError('No caller.');
        return { groups: [{ id: 1, group: ctx.caller.accountId }] };
      },
      async getUsers(_req, ctx) {
        signals.push(ctx.signal);
        return { users: [], nextPageToken: '' };
      },
      async listApiKeys(_req, ctx) {
        signals.push(ctx.signal);
        // Answers only once its caller gave up.
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        return { keys: [] };
      },
      async listAccounts() {
        slowCalls++;
        await new Promise((r) => setTimeout(r, 500));
        return { accounts: [], nextPageToken: '' };
      },
    }, log);
    server = await startGrpcServer({
      services: [{ name: SERVICE, definition: IdentityServiceService, implementation: impl }],
      host: '127.0.0.1',
      port: 0,
      protoRoot,
      protoFiles: [protoFiles.identity],
      log,
      reflection: true,
    });
  });
  after(() => server.shutdown(500));

  it('passes the caller in metadata and maps domain errors to status codes', async () => {
    const client = createGrpcClient(IdentityServiceService, server.address);
    const { groups } = await client.getGroups({}, { caller: { accountId: 'acc-1', role: 'user' } });
    assert.deepEqual(groups, [{ id: 1, group: 'acc-1' }]);
    await assert.rejects(client.getGroups({}), { code: 'NOT_FOUND', message: 'No caller.' });
    await assert.rejects(client.removeUser({ userIdentifier: 'x' }), { code: 'UNIMPLEMENTED' });
    client.close();
  });

  it('enforces client deadlines', async () => {
    const client = createGrpcClient(IdentityServiceService, server.address, { deadlineMs: 100 });
    await assert.rejects(client.listAccounts({}), { code: 'DEADLINE_EXCEEDED' });
    assert.equal(slowCalls, 1);
    client.close();
  });

  it("aborts a call's signal when its caller cancels it, never once it was answered", async () => {
    const client = createGrpcClient(IdentityServiceService, server.address, { deadlineMs: 100 });
    const caller = { caller: { accountId: 'acc-1', role: 'user' as const } };
    await client.getUsers({}, caller);
    await assert.rejects(client.listApiKeys({}, caller), { code: 'DEADLINE_EXCEEDED' });
    // Both calls are over on the server once the second one's handler returned (its signal aborted); a few
    // turns of the event loop more let grpc-js emit everything it emits after a call.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(signals.length, 2);
    assert.equal(signals[0]!.aborted, false, 'the answered call was not aborted afterwards');
    assert.equal(signals[1]!.aborted, true, 'the call its caller gave up on was aborted');
    client.close();
  });

  it('serves the standard health service', async () => {
    const healthProto = join(dirname(require.resolve('grpc-health-check/package.json')), 'proto/health/v1/health.proto');
    const health = clientFor(healthProto, dirname(healthProto), ['grpc', 'health', 'v1', 'Health'], server.address);
    const check = (service: string) =>
      new Promise<{ status: string }>((resolve, reject) => health.Check({ service }, (e: Error | null, r: { status: string }) => (e ? reject(e) : resolve(r))));
    assert.equal((await check('')).status, 'SERVING');
    assert.equal((await check(SERVICE)).status, 'SERVING');
    health.close();
  });

  it('serves no reflection unless asked (GRPC_REFLECTION; off with NODE_ENV=production)', async () => {
    const log = createLogger('grpc-test');
    const quiet = await startGrpcServer({ services: [], host: '127.0.0.1', port: 0, protoRoot, protoFiles: [protoFiles.identity], log });
    try {
      await assert.rejects(listServices(quiet.address), { code: status.UNIMPLEMENTED });
    } finally {
      await quiet.shutdown(500);
    }
    assert.equal(loadGrpcServerSettings(envReader({ NODE_ENV: 'production' }), 50051).reflection, false);
    assert.equal(loadGrpcServerSettings(envReader({ NODE_ENV: 'development' }), 50051).reflection, true);
    assert.equal(loadGrpcServerSettings(envReader({ NODE_ENV: 'production', GRPC_REFLECTION: 'true' }), 50051).reflection, true);
    assert.equal(loadGrpcServerSettings(envReader({}), 50051).host, '0.0.0.0', 'a container listens for its Service');
  });

  it('serves reflection listing the service', async () => {
    const services = await listServices(server.address);
    assert.ok(services.includes(SERVICE), services.join(','));
  });
});
