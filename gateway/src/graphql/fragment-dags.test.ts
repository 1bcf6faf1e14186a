import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Lexer, Source, TokenKind, parse, validate } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { schema } from './executable-schema.js';
import { DEFAULT_QUERY_LIMITS, queryLimitRules } from './limits.js';

/**
 * Issue 46: documents whose fragments spread each other many times (a DAG: F0 spreads F1 k times, F1
 * spreads F2 k times, …) expand to k^levels selections from a few hundred bytes. The query-limit rule
 * measures each fragment once, so refusing them costs what the document costs. Checked on work done (the
 * rule's counter of visited selections, read from /metrics), not on time, through real HTTP and the
 * graphql-ws WebSocket, with no API key (validation runs before any key is checked).
 */

let t: TestGateway;
before(async () => {
  t = await startTestGateway();
});
after(async () => {
  await t.stop();
});

/** `levels` fragments on `type`, each spreading the next `spreads` times; the last selects `leaf`. */
function fragmentDag(operation: 'query' | 'subscription', type: string, levels: number, spreads: number, leaf: string): string {
  const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on ${type} { ${Array(spreads).fill(`...F${i + 1}`).join(' ')} }`);
  return `${operation} Dag { ...F0 } ${fragments.join(' ')} fragment F${levels} on ${type} { ${leaf} }`;
}

function tokensOf(document: string): number {
  const lexer = new Lexer(new Source(document));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
}

async function visited(): Promise<number> {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('gateway_graphql_limit_visited_selections_total '));
  assert.ok(line, 'the counter is exported');
  return Number(line.split(' ').at(-1));
}

type GqlError = { message: string; extensions?: Record<string, unknown> };

const cases = [
  { levels: 40, spreads: 2 },
  { levels: 40, spreads: 10 },
];

describe('fragment DAGs over HTTP', () => {
  for (const { levels, spreads } of cases) {
    test(`${levels} levels, ${spreads} spreads each: refused as too costly, the rule visiting a few selections per token`, async () => {
      const query = fragmentDag('query', 'Query', levels, spreads, '__typename');
      const before = await visited();
      const res = await fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
        body: JSON.stringify({ query }),
      });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { errors: GqlError[] };
      assert.deepEqual(
        body.errors.map((e) => [e.extensions?.['code'], e.message.replace(/about \S+ fields/, 'about N fields')]),
        [['QUERY_TOO_COMPLEX', 'Operation Dag could return about N fields; at most 250000 are allowed. Ask for fewer fields or smaller pages (first).']],
      );
      const work = (await visited()) - before;
      assert.ok(work > 0, 'the rule ran');
      // Each spread is visited a bounded number of times (cost, root count, root calls), whatever it expands to.
      assert.ok(work <= 4 * tokensOf(query), `${work} selections visited for ${tokensOf(query)} tokens`);
    });
  }
});

describe('fragment DAGs over the WebSocket', () => {
  for (const { levels, spreads } of cases) {
    test(`${levels} levels, ${spreads} spreads each: the subscription is refused with QUERY_TOO_COMPLEX`, async () => {
      const client = createClient({
        url: `${t.baseUrl.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { apiKey: t.userKey },
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
      });
      try {
        const query = fragmentDag('subscription', 'Subscription', levels, spreads, 'jobUpdated { id }');
        const before = await visited();
        const updates = client.iterate({ query });
        await assert.rejects(updates.next(), (errors: GqlError[]) => {
          assert.ok(
            errors.some((e) => e.extensions?.['code'] === 'QUERY_TOO_COMPLEX'),
            JSON.stringify(errors),
          );
          return true;
        });
        const work = (await visited()) - before;
        assert.ok(work > 0 && work <= 4 * tokensOf(query), `${work} selections visited for ${tokensOf(query)} tokens`);
      } finally {
        await client.dispose();
      }
    });
  }
});

test('past maxVisitedSelections the document is refused unmeasured, with the same code', () => {
  // A fragment on a connection is measured once per page size: 30 page sizes of a 4-selection fragment are
  // 120 visits and more, past a budget of 100 (40,000 in service, four times the most tokens a document has).
  const roots = Array.from({ length: 30 }, (_, i) => `users(first: ${i + 1}) { ...U }`).join(' ');
  const document = parse(`query Wide { ${roots} } fragment U on UserConnection { nodes { id name } pageInfo { hasNextPage } }`);
  const errors = validate(schema, document, queryLimitRules({ ...DEFAULT_QUERY_LIMITS, maxVisitedSelections: 100 }));
  assert.deepEqual(
    errors.map((e) => [e.extensions['code'], e.message]),
    [['QUERY_TOO_COMPLEX', 'Operation Wide is too complex to measure: its fragments expand past 100 selections. Spread fewer fragments.']],
  );
  // The same document within the service's budget is measured, and refused for what it is (30 root fields).
  const measured = validate(schema, document, queryLimitRules());
  assert.match(measured[0]!.message, /asks for 30 root fields; at most 20/);
});
