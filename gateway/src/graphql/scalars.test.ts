import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema, isInputObjectType, isObjectType, getNamedType, type GraphQLField, type GraphQLInputField } from 'graphql';
import { typeDefs } from './schema.js';
import { dateScalar, dateTimeScalar, decimalScalar, decimalText } from './scalars.js';

/** Fields (and input fields) of the schema with the named type of each, as Type.field. */
function fieldsOf(): { at: string; name: string; type: string; deprecated: boolean }[] {
  const schema = buildSchema(typeDefs);
  const out: { at: string; name: string; type: string; deprecated: boolean }[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (!isObjectType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields()) as (GraphQLField<unknown, unknown> | GraphQLInputField)[]) {
      out.push({ at: `${type.name}.${field.name}`, name: field.name, type: getNamedType(field.type).name, deprecated: !!field.deprecationReason });
      for (const arg of 'args' in field ? field.args : []) out.push({ at: `${type.name}.${field.name}(${arg.name})`, name: arg.name, type: getNamedType(arg.type).name, deprecated: !!arg.deprecationReason });
    }
  }
  return out;
}

describe('exact scalars (issue 29)', () => {
  it('answers no money, amount, value or rate as Float, no date as String, and no JSON but on deprecated fields', () => {
    const fields = fieldsOf();
    // Float stays for what is not money: a chain id, an NFT trait's number, and the NFT listing's millisecond bounds.
    const floatAllowed = new Set(['Network.chainId', 'NftAttribute.numberValue', 'NftAttributeInput.numberValue', 'Query.nfts(from)', 'Query.nfts(to)']);
    assert.deepEqual(fields.filter((f) => f.type === 'Float' && !floatAllowed.has(f.at)).map((f) => f.at), []);
    const dated = /(At|Date)$|^date[A-Z]|^reportingPeriod(Start|End)$/;
    assert.deepEqual(fields.filter((f) => f.type === 'String' && dated.test(f.name)).map((f) => f.at), []);
    assert.deepEqual(fields.filter((f) => f.type === 'JSON' && !f.deprecated).map((f) => f.at), [], 'JSON only on deprecated fields');
    const types = new Map(fields.map((f) => [f.at, f.type]));
    assert.equal(types.get('Position.amount'), 'Decimal');
    assert.equal(types.get('AddPositionInput.amount'), 'Decimal');
    assert.equal(types.get('FxRate.rate'), 'Decimal');
    assert.equal(types.get('PositionImpact.attributedVolume'), 'Decimal');
    assert.equal(types.get('Asset.dateIssued'), 'Date');
    assert.equal(types.get('Job.createdAt'), 'DateTime');
  });

  it('Decimal: plain text to 15 significant digits, never an exponent or a float artefact', () => {
    assert.equal(decimalText(0.1 + 0.2), '0.3');
    assert.equal(decimalText(1250000.5), '1250000.5');
    assert.equal(decimalText(-0.25), '-0.25');
    assert.equal(decimalText(0), '0');
    assert.equal(decimalText(-0), '0');
    assert.equal(decimalText(1e21), '1000000000000000000000');
    assert.equal(decimalText(1.2e-7), '0.00000012');
    assert.equal(decimalText(123456789012.34), '123456789012.34');
    assert.equal(decimalText(2 / 3), '0.666666666666667');
    assert.throws(() => decimalText(Number.NaN));
    // Every decimal of at most 15 digits comes back as given (the double store keeps it exactly).
    for (const text of ['999999999999999', '0.000000000000001', '12345.6789012345', '100.5', '7']) assert.equal(decimalText(Number(text)), text);
  });

  it('Decimal input: text or a number, at most 15 significant digits; anything else is BAD_USER_INPUT', () => {
    assert.equal(decimalScalar.parseValue('1250000.50'), 1250000.5);
    assert.equal(decimalScalar.parseValue('-3'), -3);
    assert.equal(decimalScalar.parseValue(12.5), 12.5);
    assert.equal(decimalScalar.parseValue('000123.4500'), 123.45, 'leading and trailing zeros are not significant');
    for (const bad of ['1e5', '12,5', '', ' ', 'NaN', '1.2.3', '0x10', '1234567890.1234567']) {
      assert.throws(() => decimalScalar.parseValue(bad), (err: { extensions?: { code?: string } }) => err.extensions?.code === 'BAD_USER_INPUT', bad);
    }
    assert.throws(() => decimalScalar.parseValue(Number.POSITIVE_INFINITY));
    assert.throws(() => decimalScalar.parseValue(true));
    assert.equal(decimalScalar.serialize(0.1 + 0.2), '0.3');
  });

  it('Date and DateTime: RFC 3339, days that exist, instants in UTC', () => {
    assert.equal(dateScalar.parseValue('2024-02-29'), '2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-4-1', '20240401', '2024-04-31', 12]) assert.throws(() => dateScalar.parseValue(bad), String(bad));
    assert.equal(dateScalar.serialize('2025-06-30'), '2025-06-30');
    assert.equal(dateScalar.serialize(new Date(Date.UTC(2025, 5, 30))), '2025-06-30');
    assert.equal(dateTimeScalar.serialize('2025-06-30T12:00:00Z'), '2025-06-30T12:00:00.000Z');
    assert.equal(dateTimeScalar.serialize('2025-06-30T14:00:00+02:00'), '2025-06-30T12:00:00.000Z');
    assert.equal(dateTimeScalar.serialize(Date.UTC(2025, 5, 30, 12)), '2025-06-30T12:00:00.000Z');
    assert.throws(() => dateTimeScalar.serialize('yesterday'));
    assert.equal(dateTimeScalar.parseValue('2025-06-30T12:00:00Z'), '2025-06-30T12:00:00.000Z');
    assert.throws(() => dateTimeScalar.parseValue('2025-06-30'));
  });
});
