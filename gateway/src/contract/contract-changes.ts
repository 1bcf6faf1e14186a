import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BreakingChangeType, buildSchema, findBreakingChanges, type GraphQLSchema } from 'graphql';

/**
 * What changed between a released contract and the current one, as lines a reviewer reads and an API
 * changelog can record: `graphql FIELD_REMOVED: Query.foo was removed.`, `openapi ...`. Only changes that can
 * break a client that works against the release are listed; additions are not.
 */
export interface ContractChange {
  face: 'graphql' | 'openapi';
  /** Stable kind, e.g. FIELD_REMOVED, PROPERTY_REMOVED, REQUIRED_ADDED, TYPE_CHANGED, OPERATION_REMOVED. */
  kind: string;
  /** The whole line, as the changelog must quote it. */
  text: string;
}

/**
 * graphql-js's own list of breaking changes between two SDLs (types, fields, arguments, enum values,
 * nullability). A standard scalar (Float, Int…) that no field uses any more is not listed: no client names
 * it, and the fields that used it are listed themselves.
 */
export function graphqlBreakingChanges(releasedSdl: string, current: GraphQLSchema | string): ContractChange[] {
  const now = typeof current === 'string' ? buildSchema(current) : current;
  return findBreakingChanges(buildSchema(releasedSdl), now)
    .filter((c) => !(c.type === BreakingChangeType.TYPE_REMOVED && c.description.startsWith('Standard scalar ')))
    .map((c) => ({ face: 'graphql', kind: c.type, text: `graphql ${c.type}: ${c.description}` }));
}

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const typeOf = (s: Json | undefined): string | undefined => {
  if (!s) return undefined;
  if (typeof s['$ref'] === 'string') return `ref ${s['$ref']}`;
  const t = s['type'];
  return Array.isArray(t) ? [...t].sort().join('|') : typeof t === 'string' ? t : undefined;
};

/**
 * Breaking changes of the OpenAPI document of /v1/call. A request schema (`Call…`) breaks a client when an
 * operation goes, a parameter becomes required, or a parameter's type or allowed values narrow; an answer
 * schema (everything else) breaks it when a property goes, stops being required (a client reading it may
 * find nothing), or changes type, or when an enum loses a value.
 */
export function openApiBreakingChanges(released: Json, current: Json): ContractChange[] {
  const changes: ContractChange[] = [];
  const add = (kind: string, text: string) => changes.push({ face: 'openapi', kind, text: `openapi ${kind}: ${text}` });
  const before = asObject(asObject(released['components'])?.['schemas']) ?? {};
  const after = asObject(asObject(current['components'])?.['schemas']) ?? {};
  for (const [name, old] of Object.entries(before)) {
    const now = asObject(after[name]);
    const request = name.startsWith('Call');
    if (!now) {
      add(request ? 'OPERATION_REMOVED' : 'SCHEMA_REMOVED', `${name} was removed.`);
      continue;
    }
    compareSchema(name, asObject(old)!, now, request, add);
  }
  return changes;
}

function compareSchema(path: string, old: Json, now: Json, request: boolean, add: (kind: string, text: string) => void): void {
  const [t0, t1] = [typeOf(old), typeOf(now)];
  if (t0 !== undefined && t0 !== t1) add('TYPE_CHANGED', `${path} changed type from ${t0} to ${t1 ?? 'untyped'}.`);
  const e0 = Array.isArray(old['enum']) ? (old['enum'] as unknown[]) : undefined;
  const e1 = Array.isArray(now['enum']) ? (now['enum'] as unknown[]) : undefined;
  if (e0 && e1) {
    // A request accepting fewer values, or an answer giving a value a client does not know.
    const lost = request ? e0.filter((v) => !e1.includes(v)) : [];
    const gained = request ? [] : e1.filter((v) => !e0.includes(v));
    for (const v of lost) add('ENUM_VALUE_REMOVED', `${path} no longer accepts ${JSON.stringify(v)}.`);
    for (const v of gained) add('ENUM_VALUE_ADDED', `${path} may now answer ${JSON.stringify(v)}.`);
  }
  const req0 = new Set(Array.isArray(old['required']) ? (old['required'] as string[]) : []);
  const req1 = new Set(Array.isArray(now['required']) ? (now['required'] as string[]) : []);
  const p0 = asObject(old['properties']) ?? {};
  const p1 = asObject(now['properties']) ?? {};
  for (const [prop, schema] of Object.entries(p0)) {
    const next = asObject(p1[prop]);
    if (!next) {
      if (!request) add('PROPERTY_REMOVED', `${path}.${prop} was removed.`);
      continue;
    }
    if (!request && req0.has(prop) && !req1.has(prop)) add('REQUIRED_REMOVED', `${path}.${prop} may now be absent.`);
    compareSchema(`${path}.${prop}`, asObject(schema) ?? {}, next, request, add);
  }
  if (request) for (const prop of req1) if (!req0.has(prop)) add('REQUIRED_ADDED', `${path}.${prop} is now required.`);
  const [i0, i1] = [asObject(old['items']), asObject(now['items'])];
  if (i0 && i1) compareSchema(`${path}[]`, i0, i1, request, add);
}

/**
 * The changes of `changes` not recorded as intended in the API changelog's "Unreleased" section, where each
 * intended breaking change is a list item quoting its line (`- \`graphql FIELD_REMOVED: …\``), with the
 * reason after it.
 */
export function unrecorded(changes: readonly ContractChange[], changelog: string): ContractChange[] {
  const unreleased = /^## Unreleased\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(changelog)?.[1] ?? '';
  return changes.filter((c) => !unreleased.includes(`\`${c.text}\``));
}

/** Where released contracts are kept: docs/contract/releases/<MAJOR.MINOR.PATCH>/. */
export const releasesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/contract/releases');
export const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** The released versions, oldest first. */
export function releases(): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(releasesDir).filter((n) => SEMVER.test(n));
  } catch {
    return [];
  }
  const key = (v: string) => SEMVER.exec(v)!.slice(1).map(Number);
  return names.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
}
