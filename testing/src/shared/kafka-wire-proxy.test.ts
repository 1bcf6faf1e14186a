import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startKafkaMock, type KafkaMock } from './kafka-mock.js';
import { bytes, frameOf, int16, int32, parseAddress, Reader, string as str, takeFrame } from './kafka-wire.js';

/**
 * The wire proxy's SyncGroup correction, spoken byte by byte to librdkafka's mock cluster so the order of
 * the two members' SyncGroup requests is the test's choice, not the scheduler's: straight to the mock, a
 * follower that syncs after its leader is refused (INVALID_REQUEST); through the proxy it gets its
 * assignment from the leader's request, as Kafka answers; any other refusal passes through unchanged.
 */

const API_JOIN_GROUP = 11;
const API_SYNC_GROUP = 14;
const INVALID_REQUEST = 42;

/** A Kafka connection that sends v1-header requests and hands back each response by correlation id. */
class WireClient {
  private buffered: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly waiting = new Map<number, (frame: Buffer) => void>();
  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      for (let f = takeFrame(this.buffered); f; f = takeFrame(this.buffered)) {
        this.buffered = f.rest;
        const id = f.frame.readInt32BE(4);
        this.waiting.get(id)?.(f.frame);
        this.waiting.delete(id);
      }
    });
  }
  static open(address: string): Promise<WireClient> {
    const { host, port } = parseAddress(address);
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => resolve(new WireClient(socket)));
      socket.once('error', reject);
    });
  }
  /** Sends one request; resolves with a Reader positioned after the response's correlation id. */
  request(apiKey: number, version: number, body: Buffer[]): Promise<Reader> {
    const id = this.nextId++;
    const payload = Buffer.concat([int16(apiKey), int16(version), int32(id), str('wire-proxy-test'), ...body]);
    const answer = new Promise<Reader>((resolve) => this.waiting.set(id, (frame) => resolve(new Reader(frame, 8))));
    this.socket.write(frameOf([payload]));
    return answer;
  }
  close(): void {
    this.socket.destroy();
  }
}

interface Joined {
  client: WireClient;
  generationId: number;
  leaderId: string;
  memberId: string;
}

/** JoinGroup v1 with a new member id; the mock answers every member once the join window closes. */
async function join(address: string, groupId: string): Promise<Joined> {
  const client = await WireClient.open(address);
  const r = await client.request(API_JOIN_GROUP, 1, [
    str(groupId),
    int32(30_000), // session timeout: no heartbeats needed during the test
    int32(30_000), // rebalance timeout
    str(''),
    str('consumer'),
    int32(1),
    str('roundrobin'),
    bytes(Buffer.alloc(0)),
  ]);
  const error = r.int16();
  assert.equal(error, 0, `JoinGroup error ${error}`);
  const generationId = r.int32();
  r.string(); // protocol name
  return { client, generationId, leaderId: r.string() ?? '', memberId: r.string() ?? '' };
}

/** SyncGroup v0: the error code and the member's assignment. */
async function sync(member: Joined, groupId: string, assignments: Map<string, string>): Promise<{ error: number; assignment: string }> {
  const body = [str(groupId), int32(member.generationId), str(member.memberId), int32(assignments.size)];
  for (const [id, value] of assignments) body.push(str(id), bytes(Buffer.from(value)));
  const r = await member.client.request(API_SYNC_GROUP, 0, body);
  const error = r.int16();
  return { error, assignment: r.bytes()?.toString('utf8') ?? '' };
}

/** Two members join `groupId`; answers them as [leader, follower]. */
async function twoMembers(address: string, groupId: string): Promise<[Joined, Joined]> {
  const members = await Promise.all([join(address, groupId), join(address, groupId)]);
  const leader = members.find((m) => m.memberId === m.leaderId);
  const follower = members.find((m) => m.memberId !== m.leaderId);
  assert.ok(leader && follower, 'one leader and one follower');
  assert.equal(leader.generationId, follower.generationId);
  return [leader, follower];
}

describe('Kafka wire proxy: a follower that syncs after its leader (librdkafka mock)', { concurrency: true }, () => {
  let mock: KafkaMock;
  const clients: WireClient[] = [];
  before(async () => {
    mock = await startKafkaMock({ partitions: 1 });
  });
  after(async () => {
    for (const c of clients) c.close();
    await mock?.stop();
  });
  const members = async (address: string, groupId: string) => {
    const pair = await twoMembers(address, groupId);
    clients.push(...pair.map((m) => m.client));
    return pair;
  };
  const plan = (leader: Joined, follower: Joined) =>
    new Map([
      [leader.memberId, 'partitions of the leader'],
      [follower.memberId, 'partitions of the follower'],
    ]);

  it('straight to the mock, the late follower is refused with INVALID_REQUEST', async () => {
    // If this starts failing, librdkafka's mock answers as Kafka does and the correction can go.
    const [leader, follower] = await members(mock.proxy!.upstream[0]!, 'late-follower-direct');
    assert.deepEqual(await sync(leader, 'late-follower-direct', plan(leader, follower)), { error: 0, assignment: 'partitions of the leader' });
    assert.equal((await sync(follower, 'late-follower-direct', new Map())).error, INVALID_REQUEST);
  });

  it('through the proxy, the late follower gets its assignment from the leader’s request', async () => {
    const [leader, follower] = await members(mock.brokers[0]!, 'late-follower-proxied');
    assert.deepEqual(await sync(leader, 'late-follower-proxied', plan(leader, follower)), { error: 0, assignment: 'partitions of the leader' });
    assert.deepEqual(await sync(follower, 'late-follower-proxied', new Map()), { error: 0, assignment: 'partitions of the follower' });
    assert.deepEqual(
      mock.proxy!.syncGroupCorrections().filter((c) => c.groupId === 'late-follower-proxied'),
      [{ groupId: 'late-follower-proxied', generationId: follower.generationId, memberId: follower.memberId }],
    );
  });

  it('through the proxy, members syncing at once both get their assignments, whichever the mock reads first', async () => {
    const [leader, follower] = await members(mock.brokers[0]!, 'racing-members-proxied');
    // Read first, the follower's SyncGroup waits in the mock for the leader's; read second, the proxy answers it.
    const followerSync = sync(follower, 'racing-members-proxied', new Map());
    const leaderSync = sync(leader, 'racing-members-proxied', plan(leader, follower));
    assert.deepEqual(await Promise.all([leaderSync, followerSync]), [
      { error: 0, assignment: 'partitions of the leader' },
      { error: 0, assignment: 'partitions of the follower' },
    ]);
  });

  it('through the proxy, a SyncGroup refusal other than INVALID_REQUEST (a stale generation) passes unchanged', async () => {
    const [leader, follower] = await members(mock.brokers[0]!, 'stale-follower-proxied');
    assert.equal((await sync(leader, 'stale-follower-proxied', plan(leader, follower))).error, 0);
    // A generation the leader never synced: the mock refuses it (ILLEGAL_GENERATION) and the proxy passes that on.
    const stale = await sync({ ...follower, generationId: follower.generationId - 1 }, 'stale-follower-proxied', new Map());
    assert.notEqual(stale.error, 0);
    assert.deepEqual(mock.proxy!.syncGroupCorrections().filter((c) => c.groupId === 'stale-follower-proxied'), []);
  });
});
