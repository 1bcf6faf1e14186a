import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { MAX_JSON_DEPTH, jsonTooDeep } from './json-depth.js';

/**
 * Issue 46: JSON input nested 10,000 levels deep (an NFT's attributes) reached the gRPC serializer, which
 * overflowed the stack: 500 "Request message serialization failure: Maximum call stack size exceeded".
 * Every JSON input is bounded in depth before anything walks it, on both faces, through real HTTP and the
 * graphql-ws WebSocket to the gateway. Refused before any backend call, so the identity service alone is
 * behind this gateway.
 */

let t: TestGateway;
before(async () => {
  // The default body limit (1 MiB), not the tests' 16 kB: 10,000 levels are some 70 kB.
  t = await startTestGateway({ BODY_LIMIT_BYTES: String(1024 * 1024) });
});
after(async () => {
  await t.stop();
});

/** `{"a":{"a":…{"a":1}…}}`, `levels` objects deep, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** The same as JSON text: JSON.stringify itself overflows the stack on 10,000 levels. */
const nestedText = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** `value` as JSON with the text `deep` where it holds the string DEEP_MARK. */
const DEEP_MARK = '<deep>';
const withDeep = (value: unknown, deep: string) => JSON.stringify(value).replace(JSON.stringify(DEEP_MARK), deep);

const DEEP = 10_000;
const TOO_DEEP = `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed.`;

test('jsonTooDeep counts levels of arrays and objects and stops at the limit', () => {
  assert.equal(jsonTooDeep(nested(3), 3), false);
  assert.equal(jsonTooDeep(nested(4), 3), true);
  assert.equal(jsonTooDeep([[[]]], 3), false);
  assert.equal(jsonTooDeep([[[[]]]], 3), true);
  assert.equal(jsonTooDeep('text', 0), false);
  // A million levels: the walk stops at the limit, so it does not overflow the stack itself.
  assert.equal(jsonTooDeep(nested(100_000)), true);
});

const mintInput = (value: unknown) => ({ network: 'sepolia', name: 'Deep', image: 'https://example.org/i.png', attributes: [{ traitType: 'deep', value }] });

describe('/v1/call', () => {
  test(`an NFT new whose attributes nest ${DEEP} levels is a 400 INVALID_ARGUMENT, in the NFT envelope`, async () => {
    const res = await fetch(`${t.baseUrl}/v1/call`, {
      method: 'POST',
      headers: jsonHeaders(t.userKey),
      body: withDeep(
        {
          solution: 'SVC.NFT.zK',
          version: 1,
          network: 'sepolia',
          operation: 'new',
          parameters: { name: 'Deep', image: 'https://example.org/i.png', attributes: { deep: DEEP_MARK } },
        },
        nestedText(DEEP),
      ),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      statusCode: 400,
      statusMessage: `The request body ${TOO_DEEP}`,
      message: `The request body ${TOO_DEEP}`,
      code: 'INVALID_ARGUMENT',
    });
  });

  test('any operation: a body nested one level past the limit is refused, one at the limit is not', async () => {
    const call = (levels: number) =>
      fetch(`${t.baseUrl}/v1/call`, {
        method: 'POST',
        headers: jsonHeaders(t.userKey),
        // The body itself is a level: the parameter nests levels - 2 more objects under parameters.
        body: JSON.stringify({ solution: 'SVC.Taxonomy', operation: 'getLanguages', parameters: { x: nested(levels - 2) } }),
      });
    const over = await call(MAX_JSON_DEPTH + 1);
    assert.equal(over.status, 400);
    assert.deepEqual(await over.json(), { message: `The request body ${TOO_DEEP}`, code: 'INVALID_ARGUMENT' });
    const at = await call(MAX_JSON_DEPTH);
    assert.notEqual(((await at.json()) as { message?: string }).message, `The request body ${TOO_DEEP}`);
  });
});

describe('GraphQL', () => {
  const MINT = 'mutation Mint($input: MintNftInput!) { mintNft(input: $input) { job { id } } }';

  test(`variables nesting ${DEEP} levels are a 400 BAD_USER_INPUT`, async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: jsonHeaders(t.userKey, { accept: 'application/graphql-response+json' }),
      body: withDeep({ query: MINT, variables: { input: mintInput(DEEP_MARK) } }, nestedText(DEEP)),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    assert.deepEqual(
      body.errors.map((e) => [e.message, e.extensions.code]),
      [[`The request body ${TOO_DEEP}`, 'BAD_USER_INPUT']],
    );
  });

  test('a JSON literal in the document nested past the limit (within the 100-bracket scan) is BAD_USER_INPUT at validation', async () => {
    const literal = '{a:'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
    const query = `mutation { mintNft(input: { network: "sepolia", name: "Deep", image: "https://example.org/i.png", attributes: [{ traitType: "deep", value: ${literal} }] }) { job { id } } }`;
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: jsonHeaders(t.userKey, { accept: 'application/graphql-response+json' }),
      body: JSON.stringify({ query }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    assert.equal(body.errors.length, 1);
    assert.equal(body.errors[0]!.extensions.code, 'BAD_USER_INPUT');
    assert.equal(body.errors[0]!.message, `A JSON value ${TOO_DEEP}`);
  });

  test(`over the WebSocket, a JSON value nesting ${DEEP} levels is BAD_USER_INPUT`, async () => {
    // Raw graphql-transport-ws messages: a client library would stringify the variables, which overflows.
    const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: { type: string; id?: string; payload?: unknown }[] = [];
    const waiting: (() => void)[] = [];
    socket.on('message', (data: Buffer) => {
      messages.push(JSON.parse(data.toString()) as (typeof messages)[number]);
      waiting.splice(0).forEach((wake) => wake());
    });
    const next = async (type: string) => {
      for (;;) {
        const found = messages.find((m) => m.type === type);
        if (found) return found;
        await new Promise<void>((wake) => waiting.push(wake));
      }
    };
    try {
      await new Promise((opened, failed) => socket.once('open', opened).once('error', failed));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { apiKey: t.userKey } }));
      await next('connection_ack');
      socket.send(withDeep({ type: 'subscribe', id: '1', payload: { query: MINT, variables: { input: mintInput(DEEP_MARK) } } }, nestedText(DEEP)));
      const answer = await Promise.race([next('next'), next('error')]);
      const errors = (answer.type === 'next' ? (answer.payload as { errors: unknown[] }).errors : answer.payload) as { message: string; extensions?: { code?: string } }[];
      assert.equal(errors[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(errors));
      assert.ok(errors[0]!.message.endsWith(`A JSON value ${TOO_DEEP}`), errors[0]!.message);
    } finally {
      socket.close();
    }
  });
});
