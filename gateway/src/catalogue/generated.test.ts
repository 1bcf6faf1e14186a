import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { z } from 'zod';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { UserRole } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { schema } from '../graphql/executable-schema.js';
import { jobStatusGraphql, jobStatusV1 } from '../generated/chain.js';
import { userAnswer, userRow } from '../generated/identity.js';
import { completed } from './objects.js';
import { annotationOf } from './methods.js';

/**
 * The proto is the catalogue (docs/gateway.md): what the build generates from the annotated protos
 * (scripts/catalogue-generate.mjs), and the goal, that a commented optional field added to a proto
 * message, and nothing else, reaches GraphQL with its comment, the OpenAPI answer schema and the /v1/call rows.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the generator on a copy of proto/ whose `<service>.proto` (identity's by default) `edit` changed: its generated `<service>.ts`, or what it printed when it failed. */
function generateWith(edit: (proto: string) => string, service = 'identity'): { generated?: string; failure?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
  try {
    cpSync(join(root, 'proto'), join(dir, 'proto'), { recursive: true, filter: (p) => !/\/(gen|dist|node_modules)$/.test(p) });
    const proto = join(dir, `proto/greenimpact/${service}/v1/${service}.proto`);
    writeFileSync(proto, edit(readFileSync(proto, 'utf8')));
    try {
      execFileSync(process.execPath, [join(root, 'scripts/catalogue-generate.mjs'), '--proto', join(dir, 'proto'), '--out', join(dir, 'out')], { stdio: 'pipe' });
    } catch (err) {
      return { failure: String((err as { stderr?: Buffer }).stderr) };
    }
    return { generated: readFileSync(join(dir, `out/${service}.ts`), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a commented optional field added to User reaches GraphQL, the answer schema and the /v1/call row', () => {
  const masked = '  bool masked = 9 [(greenimpact.options.v1.face).v1_hidden = true];\n';
  const { generated, failure } = generateWith((text) => {
    assert.ok(text.includes(masked), 'User ends with masked');
    return text.replace(masked, `${masked}  // Time zone of the user, an IANA name.\n  optional string time_zone = 10;\n`);
  });
  assert.equal(failure, undefined);
  assert.match(generated!, /\n {2}timeZone: field\("String", "Time zone of the user, an IANA name\.", "timeZone"\),\n/);
  assert.match(generated!, /\n {2}time_zone: z\.string\(\)\.nullable\(\)\.meta\(\{ description: "Time zone of the user, an IANA name\." \}\),\n/);
  assert.match(generated!, /\n {4}time_zone: s\.timeZone \?\? null,\n/);
});

test('a field without a comment fails the generation: the comment is its one description', () => {
  const { generated, failure } = generateWith((text) => text.replace('  // Group name, e.g. investors.\n', ''));
  assert.equal(generated, undefined);
  assert.match(failure!, /\.greenimpact\.identity\.v1\.Group\.group has no comment/);
});

test('the generated User row is what its answer schema says, typed and checked', () => {
  const row = userRow({
    userId: 4,
    userIdentifier: 'ann',
    userFirstName: 'Ann',
    userLastName: '',
    userEmail: '',
    userRole: UserRole.USER_ROLE_UNSPECIFIED,
    userGroups: [{ id: 1, group: 'reporting' }],
    encrypted: false,
    masked: false,
  });
  assert.deepEqual(row, {
    user_id: 4,
    user_identifier: 'ann',
    user_first_name: 'Ann',
    user_last_name: null,
    user_email: null,
    user_role: 'user',
    user_groups: [{ group_id: 1, group: 'reporting' }],
  });
  assert.deepEqual(Object.keys(z.toJSONSchema(userAnswer).properties ?? {}), Object.keys(row));
  assert.equal(userAnswer.safeParse(row).success, true);
});

test('the proto comments are the GraphQL descriptions, and the methods\' annotations their fields', () => {
  const sdl = printSchema(schema);
  assert.match(sdl, /"""Role of a user within an account, as the spec names it \(user_role\)\."""\nenum UserRole \{/);
  assert.match(sdl, /type Network \{\n {2}"""The name clients pass as network\."""\n {2}name: String!/);
  assert.deepEqual(annotationOf('identity', 'getUsers'), { v1: 'getUsers', graphql: 'users', kind: 'paged' });
  assert.equal(annotationOf('identity', 'authenticate'), undefined);
});

test('a commented optional field added to Job, a composed type, reaches GraphQL with nothing written by hand', () => {
  const last = '  optional string nft_id = 29;\n';
  const { generated, failure } = generateWith((text) => {
    assert.ok(text.includes(last), 'Job ends with nft_id');
    return text.replace(last, `${last}  // Gas limit the transaction was sent with.\n  optional int64 gas_limit = 32;\n`);
  }, 'chain');
  assert.equal(failure, undefined);
  // Among the generated fields, which the gateway's `more` completes.
  assert.match(generated!, /\n {2}gasLimit: field\("Float", "Gas limit the transaction was sent with\.", "gasLimit"\),\n\}, more\(field\)\), \{ implements: 'Node' \}\);/);
});

test('completed: a resolver keeps the proto field (type, description, place, deprecation), fields are placed after the one named, an unknown name fails', () => {
  const fields = {
    a: { type: 'String', doc: 'A.', from: 'a' },
    b: { type: 'JSON', doc: 'B.', from: 'b', deprecated: 'Read c.' },
    d: { type: 'Int!', doc: 'D.', from: 'd' },
  };
  const resolve = (s: { b?: unknown }) => s.b ?? null;
  const c = { type: 'String', doc: 'C.', resolve: () => 'c' };
  const done = completed<{ b?: unknown }>(fields, { resolve: { b: resolve }, after: { b: { c } } });
  assert.deepEqual(Object.keys(done), ['a', 'b', 'c', 'd']);
  assert.deepEqual(done.b, { type: 'JSON', doc: 'B.', resolve, deprecated: 'Read c.' });
  assert.equal(done.c, c);
  assert.throws(() => completed(fields, { after: { x: { c } } }), /the proto has no field x/);
});

test('Job as generated and completed: requestParameters right after request, the outcomes together; a status the proto does not name is an internal error', () => {
  const job = /type Job implements Node \{([^}]*)\}/.exec(printSchema(schema))?.[1] ?? '';
  const names = [...job.matchAll(/\n {2}(\w+)(?:\(|:)/g)].map((m) => m[1]);
  assert.deepEqual(names.slice(names.indexOf('request'), names.indexOf('request') + 2), ['request', 'requestParameters']);
  assert.deepEqual(names.slice(names.indexOf('keyValue'), names.indexOf('keyValue') + 3), ['keyValue', 'document', 'nft']);
  assert.match(job, /requestParameters: \[RequestParameter!\]!/);
  assert.match(job, /request: JSON @deprecated\(reason: "Untyped: read requestParameters\."\)/);
  assert.equal(jobStatusGraphql(JobStatus.JOB_STATUS_COMPLETED), 'COMPLETED');
  assert.equal(jobStatusV1(JobStatus.JOB_STATUS_FAILED), 'failed');
  assert.throws(() => jobStatusGraphql(JobStatus.JOB_STATUS_UNSPECIFIED), { code: 'INTERNAL' });
});
