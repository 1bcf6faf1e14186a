import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import { validateParameters } from '../parameters.js';
import {
  checkNetworkName,
  documentFormat,
  documentKind,
  documentKindParts,
  renderSettings,
  requestEcho,
  saveTarget,
  writeFrameworkParams,
  writePositionImpactsParams,
} from './blockchain-params.js';

const inner = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };
const write = { framework_identifier: 'GBF-2024', reporting_year: 2024, ...inner };

test('saveTarget: the inner solution, operation, version and network of a write', () => {
  assert.deepEqual(saveTarget(validateParameters(writeFrameworkParams, write)), { network: 'sepolia', version: 1 });
  assert.deepEqual(saveTarget(validateParameters(writeFrameworkParams, { ...write, version: '1' })), { network: 'sepolia', version: 1 });
  // One spec example sends `contract` in place of `solution`; the inner field accepts it as well.
  const { solution: _s, ...withoutSolution } = write;
  assert.deepEqual(saveTarget(validateParameters(writeFrameworkParams, { ...withoutSolution, contract: 'SVC.Blockchain.Save' })).network, 'sepolia');
  const refused: [Record<string, unknown>, string][] = [
    [{ solution: 'SVC.Blockchain.Fetch' }, 'parameters.solution must be SVC.Blockchain.Save.'],
    [{ solution: 'svc.blockchain.save' }, 'parameters.solution must be SVC.Blockchain.Save.'],
    [{ solution: ['SVC.Blockchain.Save'] }, 'parameters.solution must be SVC.Blockchain.Save.'],
    [{ operation: 'fetch' }, 'parameters.operation must be save.'],
    [{ version: 2 }, 'parameters.version must be 1.'],
    [{ version: '1.0' }, 'parameters.version must be 1.'],
    [{ version: true }, 'parameters.version must be 1.'],
    [{ network: 'sepolia mainnet' }, 'parameters.network must be a network name such as sepolia.'],
    [{ network: 11155111 }, 'parameters.network must be a network name such as sepolia.'],
  ];
  for (const [change, message] of refused) {
    assert.throws(() => saveTarget(validateParameters(writeFrameworkParams, { ...write, ...change })), { code: 'INVALID_ARGUMENT', message }, JSON.stringify(change));
  }
});

test('the inner fields are required with messages naming them as inner parameters', () => {
  for (const name of ['solution', 'operation', 'version', 'network']) {
    const { [name]: _dropped, ...rest } = write as Record<string, unknown>;
    assert.throws(() => validateParameters(writeFrameworkParams, rest), { code: 'INVALID_ARGUMENT', message: `parameters.${name} is required.` });
    assert.throws(() => validateParameters(writeFrameworkParams, { ...rest, [name]: '' }), { message: `parameters.${name} is required.` });
  }
  assert.throws(() => validateParameters(writeFrameworkParams, { ...write, framework_identifier: '' }), { message: 'framework_identifier is required.' });
  assert.throws(() => validateParameters(writeFrameworkParams, { ...write, reporting_year: 24 }), { message: 'reporting_year must be a 4-digit year.' });
  assert.throws(() => validateParameters(writeFrameworkParams, { ...write, decimals: 11 }), { message: 'decimals must be between 0 and 10.' });
  assert.throws(() => validateParameters(writeFrameworkParams, { ...write, sdg_goals_included: 'si' }), { message: 'sdg_goals_included must be yes or no.' });
  const position = { position_id: 12, reporting_year: 2024, ...inner };
  assert.throws(() => validateParameters(writePositionImpactsParams, { ...position, position_id: 0 }), { message: 'position_id must be at least 1.' });
  assert.throws(() => validateParameters(writePositionImpactsParams, { ...position, write_investor_to_blockchain: 'maybe' }), {
    message: 'write_investor_to_blockchain must be yes or no.',
  });
  // The spec's table misspells decryption_key as depryption_key.
  assert.equal(validateParameters(writePositionImpactsParams, { ...position, depryption_key: 'k' }).decryption_key, 'k');
});

test('renderSettings: yes/no flags default to no; language and decimals as given', () => {
  const p = validateParameters(writeFrameworkParams, { ...write, decimals: '0', sdg_goals_included: 'YES', language_code: 'sv' });
  assert.deepEqual(renderSettings(p), { languageCode: 'sv', decimals: 0, sdgGoalsIncluded: true, euObjectivesIncluded: false });
  assert.deepEqual(renderSettings(validateParameters(writeFrameworkParams, write)), {
    languageCode: undefined,
    decimals: undefined,
    sdgGoalsIncluded: false,
    euObjectivesIncluded: false,
  });
  assert.equal(documentFormat('json'), DocumentFormat.DOCUMENT_FORMAT_JSON);
  assert.equal(documentFormat('html'), DocumentFormat.DOCUMENT_FORMAT_HTML);
});

test('document kinds: family and format both ways', () => {
  for (const family of ['framework', 'position_impacts'] as const) {
    for (const format of ['json', 'html'] as const) assert.deepEqual(documentKindParts(documentKind(family, format)), { family, format });
  }
  assert.equal(documentKind('position_impacts', 'html'), DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML);
  assert.equal(documentKindParts(DocumentKind.DOCUMENT_KIND_UNSPECIFIED), undefined);
  assert.equal(documentKindParts(undefined), undefined);
});

test('requestEcho: the call in its legacy form, without keys', () => {
  assert.deepEqual(requestEcho('SVC.ESG.Credits', 'writeJsonPositionImpactsToBlockchain', { position_id: 12, decryption_key: 'secret', language_code: undefined }), {
    solution: 'SVC.ESG.Credits',
    operation: 'writeJsonPositionImpactsToBlockchain',
    parameters: { position_id: 12 },
  });
  const echo = requestEcho('SVC.Blockchain.Hash', 'insertString', { key: 'k', value: 'v' }, { version: 1, network: 'sepolia' });
  assert.deepEqual(echo, { solution: 'SVC.Blockchain.Hash', version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k', value: 'v' } });
  assert.deepEqual(Object.keys(echo), ['solution', 'version', 'network', 'operation', 'parameters']);
});

test('checkNetworkName names the field it checks', () => {
  assert.equal(checkNetworkName('amoy', 'input.network'), 'amoy');
  assert.throws(() => checkNetworkName('', 'input.network'), { message: 'input.network must be a network name such as sepolia.' });
  assert.throws(() => checkNetworkName('a/b', 'input.network'), { code: 'INVALID_ARGUMENT' });
});
