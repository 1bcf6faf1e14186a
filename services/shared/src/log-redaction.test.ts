import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from './logger.js';
import { CENSOR, MAX_DEPTH, isSecretKey, redactLogRecord } from './log-redaction.js';

const KEY = 'gi_Zk3x9QvLr2mN8pT5wY7aB1cD4eF6gH0jK2lM4nP6qR8';
const HEX = 'a3f1c2e4b5d6978812345678901234567890abcdefabcdefabcdefabcdef1234';

/** The JSON lines a real createLogger writes, parsed. */
function capture(): { log: ReturnType<typeof createLogger>; lines: () => Record<string, unknown>[]; text: () => string } {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString('utf8');
      done();
    },
  });
  // pino writes synchronously to a plain stream; the text is there when the call returns.
  const log = createLogger('redaction-test', { level: 'debug' }, sink);
  return { log, text: () => out, lines: () => out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('log redaction', () => {
  it('censors keys, codes and PII by name at every depth, in any spelling', () => {
    const { log, lines, text } = capture();
    log.info(
      {
        apiKey: KEY,
        request: {
          headers: { 'x-api-key': KEY, Authorization: `Bearer ${KEY}`, cookie: 'sid=1' },
          body: {
            parameters: {
              encryptionKey: HEX, decryption_key: HEX, 'Encryption-Key': HEX,
              investor: { investorName: 'Ada Lovelace', userEmail: 'ada@example.org', details: { password: 'hunter2', receiverCode: KEY } },
            },
          },
        },
        nft: { send: { owner_code: KEY, code: KEY, recipient: 'Grace Hopper' } },
        list: [{ api_key: KEY }, { nested: [{ secret: 'x'.repeat(40) }] }],
        network: 'sepolia',
        jobId: '2f8c4c64-8b9b-4b1a-9bb7-0a8f0f1d2f11',
      },
      'a request',
    );
    const [line] = lines();
    assert.ok(!text().includes(KEY) && !text().includes(HEX), 'no key anywhere in the line');
    for (const secret of ['Ada Lovelace', 'ada@example.org', 'hunter2', 'Grace Hopper', 'sid=1', 'x'.repeat(40)]) assert.ok(!text().includes(secret), secret);
    const request = line!['request'] as { headers: Record<string, string>; body: { parameters: Record<string, unknown> } };
    assert.equal(line!['apiKey'], CENSOR);
    assert.equal(request.headers['x-api-key'], CENSOR);
    assert.equal(request.headers['Authorization'], CENSOR);
    assert.deepEqual(request.body.parameters, {
      encryptionKey: CENSOR, decryption_key: CENSOR, 'Encryption-Key': CENSOR,
      investor: { investorName: CENSOR, userEmail: CENSOR, details: { password: CENSOR, receiverCode: CENSOR } },
    });
    assert.deepEqual(line!['list'], [{ api_key: CENSOR }, { nested: [{ secret: CENSOR }] }]);
    assert.equal(line!['network'], 'sepolia', 'what is no secret stays');
    assert.equal(line!['jobId'], '2f8c4c64-8b9b-4b1a-9bb7-0a8f0f1d2f11');
    assert.equal(line!['msg'], 'a request');
  });

  it('censors e-mail addresses in any text: values, arrays, messages, errors and child bindings', () => {
    const { log, lines, text } = capture();
    log.child({ requestId: 'r1', note: 'for bob@example.com' }).info({ deep: { deeper: { deepest: { text: 'mail to ada.lovelace+nft@mail.example.org now' } } }, to: ['grace@navy.mil'] }, 'sent to carol@example.net');
    log.error(new Error('no mailbox dave@example.com'));
    log.warn({ err: Object.assign(new Error('refused erin@example.com'), { code: 'ECONNREFUSED', token: KEY }) }, 'smtp');
    const all = text();
    for (const address of ['bob@example.com', 'ada.lovelace+nft@mail.example.org', 'grace@navy.mil', 'carol@example.net', 'dave@example.com', 'erin@example.com']) {
      assert.ok(!all.includes(address), address);
    }
    assert.ok(!all.includes(KEY));
    const [first, second, third] = lines();
    assert.equal((first!['deep'] as { deeper: { deepest: { text: string } } }).deeper.deepest.text, `mail to ${CENSOR} now`);
    assert.equal(first!['msg'], `sent to ${CENSOR}`);
    assert.equal(first!['requestId'], 'r1');
    assert.equal(second!['msg'], `no mailbox ${CENSOR}`);
    const err = third!['err'] as Record<string, unknown>;
    assert.equal(err['type'], 'Error', 'an error still says what it is');
    assert.equal(err['code'], 'ECONNREFUSED', 'an error\'s code is its kind, kept');
    assert.equal(err['token'], CENSOR);
    assert.match(String(err['stack']), /^Error: refused \[redacted\]/);
  });

  it('survives cycles and bounds the depth it walks', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    let deep: Record<string, unknown> = { apiKey: KEY };
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = { next: deep };
    const { log, text } = capture();
    log.info({ cyclic, deep }, 'odd shapes');
    assert.match(text(), /"self":"\[Circular\]"/);
    assert.ok(!text().includes(KEY), 'beyond the depth walked, censored rather than written');
  });

  it('leaves a record with nothing to hide as it is (no copy)', () => {
    const record = { requestId: 'r1', route: '/v1/call', status: 200, at: new Date(0), nested: { ms: 3, list: [1, 'two'] } };
    assert.equal(redactLogRecord(record), record);
    assert.equal(redactLogRecord(record).nested, record.nested);
  });

  it('matches names across snake_case, camelCase and kebab-case', () => {
    for (const k of ['apiKey', 'api_key', 'API_KEY', 'x-api-key', 'encryptionKey', 'decryption-key', 'authorization', 'Password', 'clientSecret', 'access_token', 'code', 'receiverCode', 'owner_code', 'email', 'userEmail', 'investor_name', 'investorName', 'privateKey', 'DATABASE_URL']) {
      assert.equal(isSecretKey(k), true, k);
    }
    for (const k of ['jobId', 'tokenId', 'network', 'requestId', 'route', 'status', 'accountId', 'errorCode', 'operation', 'address']) assert.equal(isSecretKey(k), false, k);
  });
});
