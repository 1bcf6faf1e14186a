import { test } from 'node:test';
import assert from 'node:assert/strict';
import { operationTable } from '../v1/operation-table.js';

/**
 * What a read-only bearer token is refused on /v1/call comes from the declarations (catalogue/v1.ts,
 * writingMethods): the GraphQL face of the same gRPC method, else the gRPC naming convention.
 */
test('every /v1/call row knows whether it writes, from the catalogue', () => {
  const writes = (operation: string) => operationTable.entries.filter((e) => e.operation === operation).map((e) => e.writes);
  // Declared as GraphQL mutations, or sharing the gRPC method of one.
  for (const op of ['generateEncryptionKey', 'addUser', 'removeUser', 'writeHtmlFrameworkToBlockchain', 'new', 'addYearSpecificsToFramework']) {
    assert.ok(writes(op).length > 0 && writes(op).every((w) => w === true), `${op} writes`);
  }
  // Queries, or reads by their gRPC method's name where no GraphQL face declares them.
  for (const op of ['getUsers', 'getGroups', 'getPositions', 'getAssetFrameworkDetails', 'getPortfolioPositions', 'getHtmlFrameworkFromBlockchain', 'list']) {
    assert.ok(writes(op).length > 0 && writes(op).every((w) => w === false), `${op} reads`);
  }
  assert.ok(operationTable.entries.every((e) => typeof e.writes === 'boolean'));
  const count = operationTable.entries.filter((e) => e.writes).length;
  assert.ok(count > 0 && count < operationTable.entries.length);
});
