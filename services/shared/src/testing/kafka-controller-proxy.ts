import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A Kafka wire-protocol proxy for tests, in front of every broker of librdkafka's mock cluster, so that
 * kafkajs' idempotent producer (production's setting) can run against the mock.
 *
 * Why: kafkajs asks the cluster's controller for a producer id (InitProducerId), and the librdkafka 2.0.2
 * mock reports controller id 0 in Metadata responses while its brokers are numbered 1..N, so kafkajs
 * fails with "Broker 0 not found in the cached metadata". The mock's C API has no way to set the
 * controller (rdkafka_mock.h: rd_kafka_mock_coordinator_set covers group and transaction coordinators
 * only), and any broker answers InitProducerId, as in real Kafka.
 *
 * What it changes, and nothing else: every request and response passes through byte for byte, except
 * - Metadata responses: a controller id that names no broker becomes the lowest broker id, and each
 *   broker's host and port become its proxy's, so clients never bypass the proxy;
 * - FindCoordinator responses: the coordinator's host and port become its proxy's.
 * Responses are matched to their requests by correlation id. Only the non-flexible versions kafkajs
 * 2.x sends are understood (Metadata v0-v8, FindCoordinator v0-v2); any other version of those two
 * APIs fails loudly (the connection is closed and stop() rejects) instead of passing through unchanged.
 *
 * Fault injection: dropProduceResponses(n) lets the next n Produce requests reach the broker (which
 * appends them) and then loses their responses by closing the client's connection, which is how a
 * producer retry that the broker must de-duplicate arises. The batches of every Produce request seen
 * are recorded (producedBatches) with their producer id, epoch and base sequence.
 */
export interface KafkaControllerProxy {
  /** host:port of each proxy, in the order of the upstream brokers given. */
  brokers: string[];
  /** The brokers behind the proxies, as given. */
  upstream: string[];
  /** Loses the responses of the next `count` Produce requests (each after the broker handled it). */
  dropProduceResponses(count?: number): void;
  /** Every record batch of every Produce request the proxy forwarded, in order. */
  producedBatches(): ProducedBatch[];
  /** Closes the listeners and every connection; rejects with the first protocol error seen, if any. */
  stop(): Promise<void>;
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

interface PendingRequest {
  apiKey: number;
  apiVersion: number;
  dropResponse: boolean;
}

export async function startKafkaControllerProxy(upstream: string[]): Promise<KafkaControllerProxy> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const errors: Error[] = [];
  const batches: ProducedBatch[] = [];
  /** upstream "host:port" -> proxy port */
  const proxyPort = new Map<string, number>();
  let dropsLeft = 0;

  const rewrite = {
    /** Maps an advertised broker address to its proxy; an unknown one is an error, never passed through. */
    address(host: string, port: number): { host: string; port: number } {
      const mapped = proxyPort.get(`${host}:${port}`);
      if (mapped === undefined) throw new Error(`broker ${host}:${port} has no proxy (proxies: ${[...proxyPort.keys()].join(', ')})`);
      return { host: '127.0.0.1', port: mapped };
    },
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
        if (apiKey === API_PRODUCE) {
          dropResponse = dropsLeft > 0;
          if (dropResponse) dropsLeft--;
          try {
            for (const batch of readProduceBatches(body, apiVersion)) batches.push({ ...batch, responseDropped: dropResponse });
          } catch (err) {
            errors.push(err as Error);
            return closeBoth(err as Error);
          }
        }
        pending.set(correlationId, { apiKey, apiVersion, dropResponse });
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
          else out.push(frame.frame);
        } catch (err) {
          const error = new Error(`Kafka controller proxy: ${(err as Error).message}`);
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
        server.listen(0, '127.0.0.1', () => {
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
      return `127.0.0.1:${proxyPort.get(`${host}:${port}`)}`;
    }),
    upstream: [...upstream],
    dropProduceResponses: (count = 1) => void (dropsLeft += count),
    producedBatches: () => batches.map((b) => ({ ...b })),
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

function parseAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  if (colon < 1 || !Number.isInteger(port)) throw new Error(`Not a host:port address: ${address}`);
  return { host: address.slice(0, colon), port };
}

/** One size-prefixed frame (the size included) from the front of `buf`, or undefined if incomplete. */
function takeFrame(buf: Buffer): { frame: Buffer; rest: Buffer } | undefined {
  if (buf.length < 4) return undefined;
  const end = 4 + buf.readInt32BE(0);
  if (buf.length < end) return undefined;
  return { frame: buf.subarray(0, end), rest: buf.subarray(end) };
}

/** A cursor over a frame, reading the Kafka protocol's non-flexible primitive types. */
class Reader {
  constructor(readonly buf: Buffer, public pos: number) {}
  int16(): number {
    const v = this.buf.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  int32(): number {
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  /** STRING or NULLABLE_STRING (null as null). */
  string(): string | null {
    const len = this.int16();
    if (len < 0) return null;
    const v = this.buf.toString('utf8', this.pos, this.pos + len);
    this.pos += len;
    return v;
  }
  bytes(): Buffer | null {
    const len = this.int32();
    if (len < 0) return null;
    const v = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return v;
  }
}

function int16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(v);
  return b;
}
function int32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
}
function string(v: string | null): Buffer {
  if (v === null) return int16(-1);
  const bytes = Buffer.from(v, 'utf8');
  return Buffer.concat([int16(bytes.length), bytes]);
}
/** Size prefix + the parts: a complete response frame. */
function frameOf(parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([int32(body.length), body]);
}

type AddressMap = (host: string, port: number) => { host: string; port: number };

/** Metadata response v0-v8 (header v0: correlation id only). */
function rewriteMetadata(frame: Buffer, version: number, address: AddressMap): Buffer {
  if (version < 0 || version > 8) throw new Error(`Metadata v${version} responses are not understood (v0-v8 are)`);
  const r = new Reader(frame, 8);
  const parts: Buffer[] = [frame.subarray(4, 8)];
  if (version >= 3) parts.push(int32(r.int32())); // throttle_time_ms
  const brokerCount = r.int32();
  parts.push(int32(brokerCount));
  const brokerIds: number[] = [];
  for (let i = 0; i < brokerCount; i++) {
    const nodeId = r.int32();
    const host = r.string();
    const port = r.int32();
    const mapped = address(host ?? '', port);
    brokerIds.push(nodeId);
    parts.push(int32(nodeId), string(mapped.host), int32(mapped.port));
    if (version >= 1) parts.push(string(r.string())); // rack
  }
  if (version >= 2) parts.push(string(r.string())); // cluster_id
  if (version >= 1) {
    const controllerId = r.int32();
    parts.push(int32(brokerIds.includes(controllerId) || brokerIds.length === 0 ? controllerId : Math.min(...brokerIds)));
  }
  parts.push(frame.subarray(r.pos)); // topics and the rest, unchanged
  return frameOf(parts);
}

/** FindCoordinator response v0-v2. */
function rewriteFindCoordinator(frame: Buffer, version: number, address: AddressMap): Buffer {
  if (version < 0 || version > 2) throw new Error(`FindCoordinator v${version} responses are not understood (v0-v2 are)`);
  const r = new Reader(frame, 8);
  const parts: Buffer[] = [frame.subarray(4, 8)];
  if (version >= 1) parts.push(int32(r.int32())); // throttle_time_ms
  parts.push(int16(r.int16())); // error_code
  if (version >= 1) parts.push(string(r.string())); // error_message
  const nodeId = r.int32();
  const host = r.string();
  const port = r.int32();
  // An error answer names no coordinator (-1, null host): nothing to map.
  const mapped = nodeId < 0 || host === null ? { host, port } : address(host, port);
  parts.push(int32(nodeId), string(mapped.host), int32(mapped.port));
  parts.push(frame.subarray(r.pos));
  return frameOf(parts);
}

/**
 * The record batches of a Produce request (v3-v7: magic 2 batches carry producer id, epoch, sequence).
 * Older versions carry no producer id and record nothing.
 */
function readProduceBatches(frame: Buffer, version: number): Omit<ProducedBatch, 'responseDropped'>[] {
  if (version < 3) return [];
  if (version > 8) throw new Error(`Produce v${version} requests are not understood (v3-v8 are)`);
  const r = new Reader(frame, 12);
  r.string(); // client_id (request header v1)
  r.string(); // transactional_id
  r.int16(); // acks
  r.int32(); // timeout_ms
  const out: Omit<ProducedBatch, 'responseDropped'>[] = [];
  for (let topics = r.int32(); topics > 0; topics--) {
    const topic = r.string() ?? '';
    for (let partitions = r.int32(); partitions > 0; partitions--) {
      const partition = r.int32();
      const records = r.bytes();
      // One or more record batches: base_offset int64, batch_length int32, then the batch_length bytes.
      for (let at = 0; records && at + 12 <= records.length; at += 12 + records.readInt32BE(at + 8)) {
        if (records.readInt8(at + 16) !== 2) throw new Error(`record batch magic ${records.readInt8(at + 16)} is not understood (2 is)`);
        out.push({
          topic,
          partition,
          producerId: records.readBigInt64BE(at + 43),
          producerEpoch: records.readInt16BE(at + 51),
          baseSequence: records.readInt32BE(at + 53),
          recordCount: records.readInt32BE(at + 57),
        });
      }
    }
  }
  return out;
}
