import type { ProducedBatch } from './kafka-wire-proxy.js';

/**
 * The few pieces of Kafka's wire protocol the wire proxy (kafka-wire-proxy.ts) reads and rewrites:
 * frames, the non-flexible primitive types, Metadata and FindCoordinator responses (their broker
 * addresses), SyncGroup requests and responses, and the record batches of Produce requests.
 */

/** One size-prefixed frame (the size included) from the front of `buf`, or undefined if incomplete. */
export function takeFrame(buf: Buffer): { frame: Buffer; rest: Buffer } | undefined {
  if (buf.length < 4) return undefined;
  const end = 4 + buf.readInt32BE(0);
  if (buf.length < end) return undefined;
  return { frame: buf.subarray(0, end), rest: buf.subarray(end) };
}

/** A cursor over a frame, reading the Kafka protocol's non-flexible primitive types. */
export class Reader {
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

export function int16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeInt16BE(v);
  return b;
}
export function int32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(v);
  return b;
}
export function string(v: string | null): Buffer {
  if (v === null) return int16(-1);
  const bytes = Buffer.from(v, 'utf8');
  return Buffer.concat([int16(bytes.length), bytes]);
}
export function bytes(v: Buffer): Buffer {
  return Buffer.concat([int32(v.length), v]);
}
/** Size prefix + the parts: a complete frame. */
export function frameOf(parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([int32(body.length), body]);
}

export type AddressMap = (host: string, port: number) => { host: string; port: number };

/** Metadata response v0-v8 (header v0: correlation id only). */
export function rewriteMetadata(frame: Buffer, version: number, address: AddressMap): Buffer {
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
export function rewriteFindCoordinator(frame: Buffer, version: number, address: AddressMap): Buffer {
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
export function readProduceBatches(frame: Buffer, version: number): Omit<ProducedBatch, 'responseDropped'>[] {
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

/** What a SyncGroup request (v0-v3) says: who syncs which generation, and the leader's assignments. */
export interface SyncGroupRequest {
  groupId: string;
  generationId: number;
  memberId: string;
  /** member id -> its assignment; empty from a follower. */
  assignments: Map<string, Buffer>;
}

export function readSyncGroupRequest(frame: Buffer, version: number): SyncGroupRequest {
  if (version < 0 || version > 3) throw new Error(`SyncGroup v${version} requests are not understood (v0-v3 are)`);
  const r = new Reader(frame, 12);
  r.string(); // client_id (request header v1)
  const groupId = r.string() ?? '';
  const generationId = r.int32();
  const memberId = r.string() ?? '';
  if (version >= 3) r.string(); // group_instance_id
  const assignments = new Map<string, Buffer>();
  for (let count = r.int32(); count > 0; count--) {
    const member = r.string() ?? '';
    assignments.set(member, Buffer.from(r.bytes() ?? Buffer.alloc(0)));
  }
  return { groupId, generationId, memberId, assignments };
}

/** The error code of a SyncGroup response (v0-v3). */
export function syncGroupErrorCode(frame: Buffer, version: number): number {
  if (version < 0 || version > 3) throw new Error(`SyncGroup v${version} responses are not understood (v0-v3 are)`);
  return frame.readInt16BE(version >= 1 ? 12 : 8);
}

/** A successful SyncGroup response (v0-v3) to the request with `correlationId`, carrying `assignment`. */
export function syncGroupAnswer(correlationId: number, version: number, assignment: Buffer): Buffer {
  const parts = [int32(correlationId)];
  if (version >= 1) parts.push(int32(0)); // throttle_time_ms
  parts.push(int16(0), bytes(assignment));
  return frameOf(parts);
}

/** "host:port" (the host may hold colons, as IPv6 does) as its parts. */
export function parseAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  if (colon < 1 || !Number.isInteger(port)) throw new Error(`Not a host:port address: ${address}`);
  return { host: address.slice(0, colon), port };
}
