import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateParameters } from '../parameters.js';
import {
  attributesOf,
  checkImage,
  checkRange,
  checkWalletAddress,
  claimParams,
  fetchParams,
  newParams,
  revokeParams,
  sendParams,
} from './nft-params.js';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

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

test('attributes of the wrong shape are refused, naming the place', () => {
  const refused = (input: unknown, message: string) => assert.throws(() => attributesOf(input), { code: 'INVALID_ARGUMENT', message });
  refused('colour=green', 'attributes must be a list of {trait_type, value} or an object of trait types and values.');
  refused(42, 'attributes must be a list of {trait_type, value} or an object of trait types and values.');
  refused(['green'], 'attributes[0] must be an object with trait_type and value.');
  refused([{ trait_type: 'a', value: 1 }, null], 'attributes[1] must be an object with trait_type and value.');
  refused([{ value: 1 }], 'attributes[0].trait_type is required.');
  refused([{ trait_type: 7, value: 1 }], 'attributes[0].trait_type must be a string.');
  refused([{ trait_type: 'a', value: { nested: true } }], 'attributes[0].value must be a string, a number or a boolean.');
  refused([{ trait_type: 'a' }], 'attributes[0].value must be a string, a number or a boolean.');
  refused({ colour: ['green'] }, 'attributes.colour.value must be a string, a number or a boolean.');
  refused({ colour: null }, 'attributes.colour.value must be a string, a number or a boolean.');
  refused([{ trait_type: 'a', value: 1, display_type: 3 }], 'attributes[0].display_type must be a string.');
  refused(Array.from({ length: 101 }, (_, i) => ({ trait_type: `t${i}`, value: i })), 'attributes: at most 100, got 101.');
  assert.throws(() => attributesOf([{ value: 1 }], 'input.attributes'), { message: 'input.attributes[0].trait_type is required.' });
});

test('wallet addresses: 0x and 40 hex digits in any case, sent lower case; the checksum is not held against the client', () => {
  assert.equal(checkWalletAddress(ADDRESS), ADDRESS.toLowerCase());
  assert.equal(checkWalletAddress(ADDRESS.toUpperCase().replace('0X', '0x')), ADDRESS.toLowerCase());
  // A wrong EIP-55 checksum (one letter's case flipped) is accepted as the same address.
  assert.equal(checkWalletAddress(ADDRESS.replace('aA', 'Aa')), ADDRESS.toLowerCase());
  assert.equal(checkWalletAddress(`  ${ADDRESS}  `), ADDRESS.toLowerCase());
  for (const bad of ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd', '0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'alice.eth']) {
    assert.throws(() => checkWalletAddress(bad), { code: 'INVALID_ARGUMENT', message: 'address must be a wallet address (0x and 40 hex digits).' }, bad);
  }
  assert.throws(() => checkWalletAddress(`0x${'0'.repeat(40)}`, 'input.address'), { message: 'input.address must not be the zero address.' });
});

test('images: an http(s) URL or the service URI', () => {
  for (const ok of ['https://example.org/a.png', 'http://127.0.0.1:8080/x.jpg?sig=1', 'ipfs://bafkreiabc', '/ipfs/bafkreiabc']) assert.equal(checkImage(ok), ok);
  for (const bad of ['ftp://example.org/a.png', 'javascript:alert(1)', 'a.png', 'ipfs://', 'data:image/png;base64,AAAA', '/ipfs/../etc']) {
    assert.throws(() => checkImage(bad), { code: 'INVALID_ARGUMENT', message: 'image must be an http(s) URL, ipfs://<cid> or /ipfs/<cid> of the service.' }, bad);
  }
});

test('list range: either bound alone, both in order', () => {
  assert.deepEqual(checkRange(undefined, undefined), {});
  assert.deepEqual(checkRange(1, undefined), { from: 1 });
  assert.deepEqual(checkRange(undefined, 5), { to: 5 });
  assert.deepEqual(checkRange(5, 5), { from: 5, to: 5 });
  assert.throws(() => checkRange(6, 5), { message: 'from must not be after to.' });
});

test('specs: required names, aliases, e-mail shape, codes under their legacy spellings', () => {
  assert.throws(() => validateParameters(newParams, { image: 'https://x.org/a.png' }), { message: 'name is required.' });
  assert.throws(() => validateParameters(newParams, { name: 'n' }), { message: 'image is required.' });
  assert.throws(() => validateParameters(newParams, { name: 'n'.repeat(201), image: 'https://x.org/a.png' }), { message: 'name must be at most 200 characters.' });
  assert.deepEqual(validateParameters(newParams, { name: 'n', image: 'i', attributes: { a: 1 }, extra: 'ignored' }), { name: 'n', image: 'i', attributes: { a: 1 } });
  assert.throws(() => validateParameters(sendParams, { nftId: '1', email: 'not-an-address' }), { message: 'email must be an e-mail address.' });
  assert.deepEqual(validateParameters(fetchParams, { job_id: 'j' }), { jobId: 'j' });
  assert.deepEqual(validateParameters(claimParams, { receiver_code: 'c', address: ADDRESS }), { receiverCode: 'c', address: ADDRESS });
  assert.deepEqual(validateParameters(claimParams, { code: 'c', address: ADDRESS, guid: 'g' }), { receiverCode: 'c', address: ADDRESS, guid: 'g' });
  assert.deepEqual(validateParameters(revokeParams, { owner_code: 'o' }), { ownerCode: 'o' });
  assert.throws(() => validateParameters(claimParams, { address: ADDRESS }), { message: 'receiverCode is required.' });
  assert.throws(() => validateParameters(revokeParams, {}), { message: 'ownerCode is required.' });
});
