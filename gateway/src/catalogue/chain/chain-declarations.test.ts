import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { GatewayClients } from '../../clients.js';
import { catalogue } from '../index.js';
import type { CallContext, Operation } from '../operation.js';
import { inputFromV1 } from '../parse.js';
import { attributesOf, walletAddress } from './nfts.js';

/**
 * The chain declarations' own reading of their input: the inner call of the /v1/call writes, the shapes of
 * NFT attributes, wallet addresses as sent. Everything else (bounds, formats, networks) is the chain
 * service's and is tested there.
 */

const v1Operation = (solution: string, operation: string): Operation => {
  const found = catalogue.find((op) => op.solution === solution && op.operation === operation);
  assert.ok(found, `${solution} ${operation} is declared`);
  return found;
};

const inner = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };
const write = { framework_identifier: 'GBF-2024', reporting_year: 2024, ...inner };
const writeJson = v1Operation('SVC.ESG.Credits', 'writeJsonFrameworkToBlockchain');
const writePosition = v1Operation('SVC.ESG.Credits', 'writeJsonPositionImpactsToBlockchain');

/** No backend: a write refused on its inner call never reaches one. */
const noBackend: CallContext = {
  caller: { accountId: 'acme', role: 'user' } as unknown as CallContext['caller'],
  requestId: 'r-1',
  clients: {} as GatewayClients,
};

test('the writes: the inner solution, operation, version and network are required, named as inner parameters', () => {
  for (const name of ['solution', 'operation', 'version', 'network']) {
    const { [name]: _dropped, ...rest } = write as Record<string, unknown>;
    assert.throws(() => inputFromV1(writeJson.input, rest), { code: 'INVALID_ARGUMENT', message: `parameters.${name} is required.` });
    assert.throws(() => inputFromV1(writeJson.input, { ...rest, [name]: '' }), { message: `parameters.${name} is required.` });
  }
  assert.throws(() => inputFromV1(writeJson.input, { ...write, framework_identifier: '' }), { message: 'framework_identifier is required.' });
  assert.throws(() => inputFromV1(writeJson.input, { ...write, sdg_goals_included: 'si' }), { message: 'sdg_goals_included must be yes or no.' });
  assert.throws(() => inputFromV1(writePosition.input, { position_id: 12, reporting_year: 2024, ...inner, write_investor_to_blockchain: 'maybe' }), {
    message: 'write_investor_to_blockchain must be yes or no.',
  });
  // The spec's table misspells decryption_key as depryption_key; one example sends `contract` for `solution`.
  assert.equal(inputFromV1(writePosition.input, { position_id: 12, reporting_year: 2024, ...inner, depryption_key: 'k' })['decryptionKey'], 'k');
  const { solution: _s, ...withoutSolution } = write;
  assert.equal(inputFromV1(writeJson.input, { ...withoutSolution, contract: 'SVC.Blockchain.Save' })['solution'], 'SVC.Blockchain.Save');
  assert.equal(inputFromV1(writeJson.input, { ...write, sdg_goals_included: 'YES' })['sdgGoalsIncluded'], 'yes');
});

test('the writes: an inner call other than SVC.Blockchain.Save save version 1 is refused before any backend is asked', async () => {
  const refused: [Record<string, unknown>, string, string][] = [
    [{ solution: 'SVC.Blockchain.Fetch' }, 'parameters.solution must be SVC.Blockchain.Save.', 'solution'],
    [{ solution: 'svc.blockchain.save' }, 'parameters.solution must be SVC.Blockchain.Save.', 'solution'],
    [{ solution: ['SVC.Blockchain.Save'] }, 'parameters.solution must be SVC.Blockchain.Save.', 'solution'],
    [{ operation: 'fetch' }, 'parameters.operation must be save.', 'operation'],
    [{ version: 2 }, 'parameters.version must be 1.', 'version'],
    [{ version: '1.0' }, 'parameters.version must be 1.', 'version'],
    [{ version: true }, 'parameters.version must be 1.', 'version'],
    [{ network: 11155111 }, 'parameters.network must be a network name such as sepolia.', 'network'],
  ];
  for (const [change, message, field] of refused) {
    const input = inputFromV1(writeJson.input, { ...write, ...change });
    await assert.rejects(writeJson.invoke(input, noBackend), (err: unknown) => {
      assert.ok(err instanceof InvalidArgumentError, String(err));
      assert.equal(err.message, message, JSON.stringify(change));
      assert.equal(err.field, field);
      return true;
    });
  }
  // Version 1 as a number or its text passes the inner check and goes on to the backends (none here: 503).
  for (const version of [1, '1']) {
    await assert.rejects(writeJson.invoke(inputFromV1(writeJson.input, { ...write, version }), noBackend), { code: 'UNAVAILABLE' });
  }
});

test('attributes: a list, one trait object, or an object of trait types and values', () => {
  assert.deepEqual(attributesOf([{ trait_type: 'tCO2e', value: 5320, display_type: 'number' }, { trait_type: 'project', value: 'Solar' }]), [
    { traitType: 'tCO2e', value: 5320, displayType: 'number' },
    { traitType: 'project', value: 'Solar' },
  ]);
  assert.deepEqual(attributesOf({ trait_type: 'verified', value: true }), [{ traitType: 'verified', value: true }]);
  assert.deepEqual(attributesOf({ colour: 'green', tonnes: 12, verified: false }), [
    { traitType: 'colour', value: 'green' },
    { traitType: 'tonnes', value: 12 },
    { traitType: 'verified', value: false },
  ]);
  for (const none of [undefined, null, '', [], {}]) assert.deepEqual(attributesOf(none), []);
});

test('attributes of the wrong shape are refused, naming the place and the field', () => {
  const refused = (input: unknown, message: string) =>
    assert.throws(() => attributesOf(input), (err: unknown) => {
      assert.ok(err instanceof InvalidArgumentError);
      assert.equal(err.message, message);
      assert.equal(err.field, 'attributes');
      return true;
    });
  refused('colour=green', 'attributes must be a list of {trait_type, value} or an object of trait types and values.');
  refused(42, 'attributes must be a list of {trait_type, value} or an object of trait types and values.');
  refused(['green'], 'attributes[0] must be an object with trait_type and value.');
  refused([{ trait_type: 'a', value: 1 }, null], 'attributes[1] must be an object with trait_type and value.');
  refused([{ trait_type: 7, value: 1 }], 'attributes[0].trait_type must be a string.');
  refused([{ trait_type: 'a', value: 1, display_type: 3 }], 'attributes[0].display_type must be a string.');
  // What a trait and its value may be is the chain service's rule: passed on as given.
  assert.deepEqual(attributesOf([{ value: 1 }]), [{ traitType: '', value: 1 }]);
  assert.deepEqual(attributesOf({ colour: ['green'] }), [{ traitType: 'colour', value: ['green'] }]);
});

test('wallet addresses go lower case, so the checksum is not held against the client; anything else goes as given', () => {
  const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  assert.equal(walletAddress(ADDRESS), ADDRESS.toLowerCase());
  assert.equal(walletAddress(ADDRESS.replace('aA', 'Aa')), ADDRESS.toLowerCase());
  assert.equal(walletAddress(`  ${ADDRESS}  `), ADDRESS.toLowerCase());
  assert.equal(walletAddress(' alice.eth '), 'alice.eth');
});
