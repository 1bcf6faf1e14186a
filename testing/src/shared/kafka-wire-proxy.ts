import { connect, createServer, type Server, type Socket } from 'node:net';
import {
  readProduceBatches,
  readSyncGroupRequest,
  rewriteFindCoordinator,
  rewriteMetadata,
  syncGroupAnswer,
  syncGroupErrorCode,
  parseAddress,
  takeFrame,
  type SyncGroupRequest,
} from './kafka-wire.js';

/**
 * A Kafka wire-protocol proxy for tests, in front of every broker of librdkafka's mock cluster, that
 * corrects the two places where the librdkafka 2.0.2 mock answers kafkajs differently from Kafka.
 *
 * 1. The controller, so that kafkajs' idempotent producer (production's setting) can run. kafkajs asks
 *    the cluster's controller for a producer id (InitProducerId), and the mock reports controller id 0
 *    in Metadata responses while its brokers are numbered 1..N, so kafkajs fails with "Broker 0 not
 *    found in the cached metadata". The mock's C API has no way to set the controller (rdkafka_mock.h:
 *    rd_kafka_mock_coordinator_set covers group and transaction coordinators only), and any broker
 *    answers InitProducerId, as in real Kafka.
 *
 * 2. A follower's SyncGroup that arrives after the leader's. The mock completes a group's sync as soon as
 *    the leader's SyncGroup brings every member's assignment, moves the group to Up, and then refuses a
 *    follower's SyncGroup for that same generation with INVALID_REQUEST (rdkafka_mock_cgrp.c: SyncGroup
 *    is not allowed in Up). Kafka answers it with the member's assignment. kafkajs' leader refreshes
 *    metadata before its SyncGroup, so the follower usually comes first, but a busy process (a replica
 *    still starting) comes second, its consumer crashes, rejoins, and can lose the same race again.
 *
 * What it changes, and nothing else: every request and response passes through byte for byte, except
 * - Metadata responses: a controller id that names no broker becomes the lowest broker id, and each
 *   broker's host and port become its proxy's, so clients never bypass the proxy;
 * - FindCoordinator responses: the coordinator's host and port become its proxy's;
 * - a SyncGroup response with INVALID_REQUEST to a member of the generation whose leader's SyncGroup
 *   the proxy forwarded becomes a success carrying that member's assignment from the leader's request,
 *   as Kafka answers (recorded in syncGroupCorrections). Any other SyncGroup error passes unchanged.
 * Responses are matched to their requests by correlation id. Only the non-flexible versions kafkajs
 * 2.x sends are understood (Metadata v0-v8, FindCoordinator v0-v2, SyncGroup v0-v3); any other version
 * of those APIs fails loudly (the connection is closed and stop() rejects) instead of passing through
 * unchanged.
 *
 * Fault injection: dropProduceResponses(n) lets the next n Produce requests reach the broker (which
 * appends them) and then loses their responses by closing the client's connection, which is how a
 * producer retry that the broker must de-duplicate arises. The batches of every Produce request seen
 * are recorded (producedBatches) with their producer id, epoch and base sequence. The protocol pieces it
 * reads and rewrites are in kafka-wire.ts.
 */
export interface KafkaWireProxy {
  /** host:port of each proxy, in the order of the upstream brokers given. */
  brokers: string[];
  /** The brokers behind the proxies, as given. */
  upstream: string[];
  /** Loses the responses of the next `count` Produce requests (each after the broker handled it). */
  dropProduceResponses(count?: number): void;
  /** Every record batch of every Produce request the proxy forwarded, in order. */
  producedBatches(): ProducedBatch[];
  /** Each late follower SyncGroup the proxy answered with the leader's assignment, in order. */
  syncGroupCorrections(): SyncGroupCorrection[];
  /** Closes the listeners and every connection; rejects with the first protocol error seen, if any. */
  stop(): Promise<void>;
}

/** A late follower's SyncGroup the proxy answered with the leader's assignment. */
export interface SyncGroupCorrection {
  groupId: string;
  generationId: number;
  memberId: string;
}

export interface ProducedBatch {
  topic: string;
  partition: number;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
  /** True when the proxy lost the broker's answer to this request. */
  responseDropped: boolean;
}

const API_PRODUCE = 0;
const API_METADATA = 3;
const API_FIND_COORDINATOR = 10;
const API_SYNC_GROUP = 14;
const INVALID_REQUEST = 42;

interface PendingRequest {
  apiKey: number;
  apiVersion: number;
  dropResponse: boolean;
  syncGroup?: SyncGroupRequest;
}

/**
 * `host`: the address the proxies listen on and advertise (default 127.0.0.1); the network fault tests run
 * the cluster on a test host of its own and give that host's address, so clients on other hosts reach it.
 */
export async function startKafkaWireProxy(upstream: string[], host = '127.0.0.1'): Promise<KafkaWireProxy> {
  const listenHost = host;
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const errors: Error[] = [];
  const batches: ProducedBatch[] = [];
  /** upstream "host:port" -> proxy port */
  const proxyPort = new Map<string, number>();
  let dropsLeft = 0;
  /** group id -> the assignments of its latest generation's leader SyncGroup. */
  const leaderAssignments = new Map<string, { generationId: number; assignments: Map<string, Buffer> }>();
  const corrections: SyncGroupCorrection[] = [];

  const rewrite = {
    /** Maps an advertised broker address to its proxy; an unknown one is an error, never passed through. */
    address(host: string, port: number): { host: string; port: number } {
      const mapped = proxyPort.get(`${host}:${port}`);
      if (mapped === undefined) throw new Error(`broker ${host}:${port} has no proxy (proxies: ${[...proxyPort.keys()].join(', ')})`);
      return { host: listenHost, port: mapped };
    },
  };

  /** The mock's INVALID_REQUEST to a follower that synced after its leader becomes Kafka's answer. */
  const answerLateSync = (frame: Buffer, correlationId: number, version: number, sync: SyncGroupRequest): Buffer => {
    if (syncGroupErrorCode(frame, version) !== INVALID_REQUEST) return frame;
    const leader = leaderAssignments.get(sync.groupId);
    const assignment = leader?.generationId === sync.generationId ? leader.assignments.get(sync.memberId) : undefined;
    if (!assignment) return frame;
    corrections.push({ groupId: sync.groupId, generationId: sync.generationId, memberId: sync.memberId });
    return syncGroupAnswer(correlationId, version, assignment);
  };

  const handle = (client: Socket, target: { host: string; port: number }) => {
    sockets.add(client);
    const server = connect(target.port, target.host);
    sockets.add(server);
    const pending = new Map<number, PendingRequest>();
    let fromClient: Buffer = Buffer.alloc(0);
    let fromServer: Buffer = Buffer.alloc(0);
    const closeBoth = (err?: Error) => {
      client.destroy(err);
      server.destroy();
    };
    client.on('close', () => {
      sockets.delete(client);
      server.destroy();
    });
    server.on('close', () => {
      sockets.delete(server);
      client.destroy();
    });
    client.on('error', () => closeBoth());
    server.on('error', () => closeBoth());

    client.on('data', (chunk: Buffer) => {
      fromClient = Buffer.concat([fromClient, chunk]);
      const out: Buffer[] = [];
      for (let frame = takeFrame(fromClient); frame; frame = takeFrame(fromClient)) {
        fromClient = frame.rest;
        const body = frame.frame;
        const apiKey = body.readInt16BE(4);
        const apiVersion = body.readInt16BE(6);
        const correlationId = body.readInt32BE(8);
        let dropResponse = false;
        let syncGroup: SyncGroupRequest | undefined;
        try {
          if (apiKey === API_PRODUCE) {
            dropResponse = dropsLeft > 0;
            if (dropResponse) dropsLeft--;
            for (const batch of readProduceBatches(body, apiVersion)) batches.push({ ...batch, responseDropped: dropResponse });
          } else if (apiKey === API_SYNC_GROUP) {
            syncGroup = readSyncGroupRequest(body, apiVersion);
            const latest = leaderAssignments.get(syncGroup.groupId);
            if (syncGroup.assignments.size > 0 && (!latest || latest.generationId <= syncGroup.generationId)) {
              leaderAssignments.set(syncGroup.groupId, { generationId: syncGroup.generationId, assignments: syncGroup.assignments });
            }
          }
        } catch (err) {
          errors.push(err as Error);
          return closeBoth(err as Error);
        }
        pending.set(correlationId, { apiKey, apiVersion, dropResponse, ...(syncGroup ? { syncGroup } : {}) });
        out.push(body);
      }
      if (out.length) server.write(Buffer.concat(out));
    });

    server.on('data', (chunk: Buffer) => {
      fromServer = Buffer.concat([fromServer, chunk]);
      const out: Buffer[] = [];
      for (let frame = takeFrame(fromServer); frame; frame = takeFrame(fromServer)) {
        fromServer = frame.rest;
        const correlationId = frame.frame.readInt32BE(4);
        const request = pending.get(correlationId);
        pending.delete(correlationId);
        if (request?.dropResponse) {
          // The broker has appended the batch; the client never learns it and must retry.
          if (out.length) client.write(Buffer.concat(out));
          return closeBoth();
        }
        try {
          if (request?.apiKey === API_METADATA) out.push(rewriteMetadata(frame.frame, request.apiVersion, rewrite.address));
          else if (request?.apiKey === API_FIND_COORDINATOR) out.push(rewriteFindCoordinator(frame.frame, request.apiVersion, rewrite.address));
          else if (request?.syncGroup) out.push(answerLateSync(frame.frame, correlationId, request.apiVersion, request.syncGroup));
          else out.push(frame.frame);
        } catch (err) {
          const error = new Error(`Kafka wire proxy: ${(err as Error).message}`);
          errors.push(error);
          return closeBoth(error);
        }
      }
      if (out.length) client.write(Buffer.concat(out));
    });
  };

  try {
    for (const address of upstream) {
      const target = parseAddress(address);
      const server = createServer((client) => handle(client, target));
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      server.unref();
      const { port } = server.address() as { port: number };
      proxyPort.set(`${target.host}:${target.port}`, port);
    }
  } catch (err) {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    brokers: upstream.map((address) => {
      const { host, port } = parseAddress(address);
      return `${listenHost}:${proxyPort.get(`${host}:${port}`)}`;
    }),
    upstream: [...upstream],
    dropProduceResponses: (count = 1) => void (dropsLeft += count),
    producedBatches: () => batches.map((b) => ({ ...b })),
    syncGroupCorrections: () => corrections.map((c) => ({ ...c })),
    stop: () => {
      stopping ??= (async () => {
        for (const s of sockets) s.destroy();
        await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
        if (errors.length) throw errors[0];
      })();
      return stopping;
    },
  };
}
