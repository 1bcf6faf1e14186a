import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadOidcIssuers } from './issuers.js';

const env = (issuers: unknown) => ({ OIDC_ISSUERS: JSON.stringify(issuers) });
const refused = (issuers: unknown) => {
  try {
    loadOidcIssuers(env(issuers));
  } catch (err) {
    return (err as Error).message;
  }
  return assert.fail('accepted');
};

describe('OIDC_ISSUERS', () => {
  test('unset: bearer tokens are not enabled', () => {
    assert.deepEqual(loadOidcIssuers({}), []);
  });

  test('defaults: asymmetric algorithms, 30 s skew, the documented claims and write scope', () => {
    assert.deepEqual(loadOidcIssuers(env([{ issuer: 'https://idp.example/realms/impact', audience: 'green-impact' }])), [
      {
        issuer: 'https://idp.example/realms/impact',
        audience: 'green-impact',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        clockSkewSeconds: 30,
        claims: { account: 'green_impact_account', role: 'green_impact_role', scope: 'scope' },
        operatorRole: 'operator',
        writeScope: 'impact:write',
      },
    ]);
  });

  test('never none nor HMAC; bad JSON, unknown settings and a twice-named issuer stop the start', () => {
    const one = { issuer: 'https://idp.example', audience: 'a' };
    assert.match(refused([{ ...one, algorithms: ['none'] }]), /^OIDC_ISSUERS\[0\.algorithms\.0\]: algorithm "none" is not allowed/);
    assert.match(refused([{ ...one, algorithms: ['RS256', 'HS256'] }]), /algorithm "HS256" is not allowed/);
    assert.match(refused([{ ...one, audiences: 'typo' }]), /^OIDC_ISSUERS\[0\]: /);
    assert.match(refused([{ issuer: 'ftp://idp.example', audience: 'a' }]), /^OIDC_ISSUERS\[0\.issuer\]/);
    assert.equal(refused([one, one]), 'OIDC_ISSUERS names https://idp.example twice.');
    assert.throws(() => loadOidcIssuers({ OIDC_ISSUERS: '{not json' }), /must be a JSON list/);
  });
});
