import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  type GraphQLNamedType,
} from 'graphql';
import { schema } from './executable-schema.js';

/**
 * The schema's product rules, checked on the whole schema rather than per domain, so a new field cannot
 * slip past them: everything described, closed sets as enums, ids as ID, growing root lists paged.
 */

const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
const ownTypes = (): GraphQLNamedType[] =>
  Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__') && !BUILT_IN.has(t.name));

test('every type, field, argument, input field and enum value has a description', () => {
  const missing: string[] = [];
  for (const t of ownTypes()) {
    if (!t.description) missing.push(t.name);
    if (isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)) {
      for (const f of Object.values(t.getFields())) {
        if (!f.description) missing.push(`${t.name}.${f.name}`);
        for (const a of 'args' in f ? f.args : []) if (!a.description) missing.push(`${t.name}.${f.name}(${a.name})`);
      }
    }
    if (isEnumType(t)) for (const v of t.getValues()) if (!v.description) missing.push(`${t.name}.${v.name}`);
  }
  assert.deepEqual(missing, []);
});

test('closed sets are enums: every status, role, visibility and kind field', () => {
  const loose: string[] = [];
  for (const t of ownTypes()) {
    // TransactionReceipt and TransactionLog mirror ethers' JSON, numbers included (status 1 or 0).
    if ((!isObjectType(t) && !isInputObjectType(t)) || t.name.startsWith('Transaction')) continue;
    for (const f of Object.values(t.getFields())) {
      if (!/^(status|role|visibility|kind|documentKind|format)$/.test(f.name)) continue;
      if (!isEnumType(getNamedType(f.type))) loose.push(`${t.name}.${f.name}: ${String(f.type)}`);
    }
  }
  assert.deepEqual(loose, []);
});

test('identifiers of records are ID, so client caches can normalise them', () => {
  const wrong: string[] = [];
  for (const t of ownTypes()) {
    if (!isObjectType(t)) continue;
    for (const f of Object.values(t.getFields())) {
      if ((f.name === 'id' || f.name === 'guid' || /Id$/.test(f.name)) && getNamedType(f.type).name !== 'ID' && !/^(nft|block|transaction|chain)Id$/i.test(f.name)) {
        wrong.push(`${t.name}.${f.name}: ${String(f.type)}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('the root lists are either paged or reference data of bounded size', () => {
  // Reference data: shared, operator-managed, bounded by a year or by the spec; or one record's parts;
  // or as long as the caller's own argument (nodes: at most 100 ids).
  const bounded = new Set(['nodes', 'groups', 'investorsOfUser', 'apiKeys', 'sdgs', 'euObjectives', 'languages', 'currencies', 'fxRates', 'categories', 'subCategories', 'superIndicators', 'indicators', 'units', 'taxonomy', 'networks']);
  const query = schema.getQueryType()!;
  const unpaged: string[] = [];
  const paged: string[] = [];
  for (const f of Object.values(query.getFields())) {
    const type = getNullableType(f.type);
    if (isListType(type)) {
      if (!bounded.has(f.name)) unpaged.push(f.name);
    } else if (getNamedType(type).name.endsWith('Connection')) {
      paged.push(f.name);
      assert.deepEqual(f.args.filter((a) => a.name === 'first' || a.name === 'after').map((a) => a.name), ['first', 'after'], `${f.name} pages with first/after`);
    }
  }
  assert.deepEqual(unpaged, []);
  assert.deepEqual(paged.sort(), ['accounts', 'assets', 'documents', 'frameworks', 'impactRecomputeJobs', 'investors', 'jobs', 'nfts', 'portfolios', 'positions', 'projects', 'users']);
});
