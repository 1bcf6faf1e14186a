import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError, InvalidArgumentError } from '@green-impact/shared/errors';
import { attributesFromJson, metadataBytes, validAttributes, validEmail, validName, validRange, validTokenId, validWalletAddress } from './nft-rules.js';

const invalid = (fn: () => unknown, message: string | RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof DomainError && err.code === 'INVALID_ARGUMENT' && (typeof message === 'string' ? err.message === message : message.test(err.message)));

describe('NFT rules', () => {
  it('reads attributes as a list, one trait object, or an object of trait types', () => {
    assert.deepEqual(attributesFromJson([{ trait_type: 'colour', value: 'green' }, { trait_type: 'tonnes', value: 12, display_type: 'number' }]), [
      { traitType: 'colour', value: 'green' },
      { traitType: 'tonnes', value: 12, displayType: 'number' },
    ]);
    assert.deepEqual(attributesFromJson({ trait_type: 'colour', value: 'green' }), [{ traitType: 'colour', value: 'green' }]);
    assert.deepEqual(attributesFromJson({ colour: 'green', tonnes: 12, audited: true }), [
      { traitType: 'colour', value: 'green' },
      { traitType: 'tonnes', value: 12 },
      { traitType: 'audited', value: true },
    ]);
    assert.deepEqual(attributesFromJson(undefined), []);
    assert.deepEqual(attributesFromJson(''), []);
    invalid(() => attributesFromJson('colour'), /attributes must be a list/);
    invalid(() => attributesFromJson(['colour']), 'attributes[0] must be an object with trait_type and value.');
  });

  it('checks attributes', () => {
    assert.deepEqual(validAttributes([{ traitType: ' colour ', value: 'green' }]), [{ trait_type: 'colour', value: 'green' }]);
    invalid(() => validAttributes([{ traitType: '', value: 1 }]), 'attributes[0].trait_type is required.');
    invalid(() => validAttributes([{ traitType: 'a', value: null }]), 'attributes[0].value must be a string, a number or a boolean.');
    invalid(() => validAttributes([{ traitType: 'a', value: [1] }]), 'attributes[0].value must be a string, a number or a boolean.');
    invalid(() => validAttributes([{ traitType: 'a', value: Infinity }]), 'attributes[0].value must be a finite number.');
    invalid(() => validAttributes([{ traitType: 'a', value: 'x', displayType: 'number' }]), 'attributes[0].display_type number needs a number value.');
    invalid(() => validAttributes([{ traitType: 'a', value: 1, displayType: 'colour' }]), /display_type must be one of number, boost_number/);
    invalid(() => validAttributes(Array.from({ length: 101 }, () => ({ traitType: 'a', value: 1 }))), 'attributes: at most 100, got 101.');
  });

  it('writes the same metadata bytes for the same NFT, in a fixed key order', () => {
    const m = { name: 'N', description: 'D', image: 'ipfs://bafk', attributes: [{ trait_type: 't', value: 1, display_type: 'number' }] };
    const a = metadataBytes(m);
    const b = metadataBytes({ attributes: [{ display_type: 'number', value: 1, trait_type: 't' }], image: 'ipfs://bafk', description: 'D', name: 'N' });
    assert.deepEqual(a, b);
    assert.deepEqual(Object.keys(JSON.parse(a.toString())), ['name', 'description', 'image', 'attributes']);
  });

  it('checks names, e-mails, addresses, token ids and ranges', () => {
    assert.equal(validName('  Solar  '), 'Solar');
    invalid(() => validName(' '), 'name is required.');
    invalid(() => validName('a\nb'), 'name must be one line without control characters.');
    invalid(() => validName('x'.repeat(201)), 'name must be at most 200 characters.');
    assert.equal(validEmail(' kim@example.org '), 'kim@example.org');
    for (const bad of ['kim', 'kim@', '@example.org', 'kim@example', 'a b@example.org', 'kim@example.org>']) invalid(() => validEmail(bad), 'email must be an e-mail address.');
    const lower = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
    assert.equal(validWalletAddress(lower), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    invalid(() => validWalletAddress('0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266'), /EIP-55 checksum/);
    invalid(() => validWalletAddress('0x' + '0'.repeat(40)), 'address must not be the zero address.');
    invalid(() => validWalletAddress(''), /address is required/);
    assert.equal(validTokenId(' 007 '), '7');
    invalid(() => validTokenId('1.5'), /must be a token id/);
    assert.equal(validRange(undefined, undefined), undefined);
    // Each refusal names its parameter, so GraphQL names it as its caller did (input.address, input.email, …).
    const fieldOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof InvalidArgumentError ? err.field : undefined;
      }
      return undefined;
    };
    assert.equal(fieldOf(() => validName('')), 'name');
    assert.equal(fieldOf(() => validEmail('kim')), 'email');
    assert.equal(fieldOf(() => validWalletAddress('alice.eth')), 'address');
    assert.equal(fieldOf(() => validTokenId('x')), 'nftId');
    assert.equal(fieldOf(() => validRange(-1, undefined)), 'from');
    assert.equal(fieldOf(() => validRange(undefined, 1.5)), 'to');
    assert.equal(fieldOf(() => validRange(6, 5)), 'from');
    assert.equal(fieldOf(() => validAttributes([{ traitType: '', value: 1 }])), 'attributes');
    assert.equal(fieldOf(() => attributesFromJson(42)), 'attributes');
    assert.deepEqual(validRange(5, undefined), { from: new Date(5) });
    invalid(() => validRange(-1, undefined), 'from must be a timestamp in milliseconds since 1970.');
    invalid(() => validRange(6, 5), 'from must not be after to.');
  });
});
