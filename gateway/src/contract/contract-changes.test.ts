import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schema } from '../graphql/executable-schema.js';
import { CONTRACT_VERSION, openApiDocument } from '../v1/openapi.js';
import { operationTable } from '../v1/operation-table.js';
import { graphqlBreakingChanges, openApiBreakingChanges, releases, unrecorded } from './contract-changes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const sdl = `type Query { job(id: ID!): Job  jobs(first: Int): [Job!]! }
type Job { id: ID!  status: Status!  cost: Float  old: String @deprecated(reason: "Use cost.") }
enum Status { QUEUED DONE }`;

describe('contract evolution check', () => {
  it('lists what breaks a GraphQL client: a field removed (deprecated or not), a type changed, an enum value removed', () => {
    const next = `type Query { job(id: ID!): Job  jobs(first: Int): [Job!]! }
type Job { id: ID!  status: Status!  cost: String }
enum Status { QUEUED }`;
    assert.deepEqual(graphqlBreakingChanges(sdl, next).map((c) => c.text).sort(), [
      'graphql FIELD_CHANGED_KIND: Job.cost changed type from Float to String.',
      'graphql FIELD_REMOVED: Job.old was removed.',
      'graphql VALUE_REMOVED_FROM_ENUM: DONE was removed from enum type Status.',
    ]);
    // Additions and deprecations break nobody.
    const added = `${sdl.replace('cost: Float', 'cost: Float @deprecated(reason: "Use amount.")  amount: String')}\ntype Extra { x: Int }`;
    assert.deepEqual(graphqlBreakingChanges(sdl, added), []);
  });

  it('lists what breaks a /v1/call client: an operation or answer property removed, a parameter made required, a type or enum changed', () => {
    const released = {
      components: {
        schemas: {
          CallEsgGetUsers: { type: 'object', properties: { limit: { type: 'integer' }, kind: { type: 'string', enum: ['a', 'b'] } }, required: [] },
          CallEsgDropMe: { type: 'object' },
          AnswerEsgGetUsers: { type: 'object', properties: { users: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] } }, state: { type: 'string', enum: ['on'] } }, required: ['users'] },
        },
      },
    };
    const current = {
      components: {
        schemas: {
          CallEsgGetUsers: { type: 'object', properties: { limit: { type: 'string' }, kind: { type: 'string', enum: ['a'] }, page: { type: 'integer' } }, required: ['page'] },
          AnswerEsgGetUsers: { type: 'object', properties: { users: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, required: [] } }, state: { type: 'string', enum: ['on', 'off'] }, more: { type: 'boolean' } }, required: ['users'] },
        },
      },
    };
    assert.deepEqual(openApiBreakingChanges(released, current).map((c) => c.text).sort(), [
      'openapi ENUM_VALUE_ADDED: AnswerEsgGetUsers.state may now answer "off".',
      'openapi ENUM_VALUE_REMOVED: CallEsgGetUsers.kind no longer accepts "b".',
      'openapi OPERATION_REMOVED: CallEsgDropMe was removed.',
      'openapi PROPERTY_REMOVED: AnswerEsgGetUsers.users[].name was removed.',
      'openapi REQUIRED_ADDED: CallEsgGetUsers.page is now required.',
      'openapi REQUIRED_REMOVED: AnswerEsgGetUsers.users[].id may now be absent.',
      'openapi TYPE_CHANGED: CallEsgGetUsers.limit changed type from integer to string.',
    ]);
    assert.deepEqual(openApiBreakingChanges(released, released), []);
  });

  it('lets through only the breaks the changelog records as intended under Unreleased', () => {
    const changes = graphqlBreakingChanges(sdl, sdl.replace('  old: String @deprecated(reason: "Use cost.")', ''));
    assert.equal(changes.length, 1);
    const recorded = '# API changelog\n\n## Unreleased\n\n- `graphql FIELD_REMOVED: Job.old was removed.` — deprecated since 1.2.0\n\n## 1.0.0 (2026-11-26)\n';
    assert.deepEqual(unrecorded(changes, recorded), []);
    // Recorded under a released version, it no longer counts: each release records its own.
    const old = '# API changelog\n\n## Unreleased\n\n## 1.0.0 (2026-11-26)\n\n- `graphql FIELD_REMOVED: Job.old was removed.`\n';
    assert.deepEqual(unrecorded(changes, old), changes);
  });

  it('the current contract breaks nothing of the newest release that the changelog does not record', () => {
    const newest = releases().at(-1);
    assert.ok(newest, 'a released contract is kept in docs/contract/releases');
    const dir = path.join(root, 'docs/contract/releases', newest);
    const changes = [
      ...graphqlBreakingChanges(readFileSync(path.join(dir, 'schema.graphql'), 'utf8'), schema),
      ...openApiBreakingChanges(JSON.parse(readFileSync(path.join(dir, 'openapi.json'), 'utf8')) as Record<string, unknown>, openApiDocument(operationTable)),
    ];
    assert.deepEqual(unrecorded(changes, readFileSync(path.join(root, 'docs/api-changelog.md'), 'utf8')), []);
  });

  it('the gateway serves, and the client package carries, the version of the newest release', () => {
    const newest = releases().at(-1) ?? '';
    assert.equal(CONTRACT_VERSION, newest, 'openapi.ts CONTRACT_VERSION');
    assert.equal((JSON.parse(readFileSync(path.join(root, 'clients/typescript/package.json'), 'utf8')) as { version: string }).version, newest);
    assert.match(readFileSync(path.join(root, 'docs/api-changelog.md'), 'utf8'), new RegExp(`^## ${newest.replaceAll('.', '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`, 'm'));
  });
});
