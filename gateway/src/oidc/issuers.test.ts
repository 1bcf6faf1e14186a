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
        accounts: '*',
        grantsOperator: true,
        operatorRole: 'operator',
        writeScope: 'impact:write',
      },
    ]);
  });

  test('issuers only over https, plain http only on a loopback address (issue 46)', () => {
    const message = 'OIDC_ISSUERS[0.issuer]: an issuer must be an https URL (http only on a loopback address: localhost, 127.0.0.1, [::1]).';
    assert.equal(refused([{ issuer: 'http://idp.example/realms/impact', audience: 'a' }]), message);
    assert.equal(refused([{ issuer: 'http://10.0.0.7:8080', audience: 'a' }]), message);
    assert.equal(refused([{ issuer: 'http://127.0.0.1.nip.io', audience: 'a' }]), message);
    for (const issuer of ['http://localhost:8080/realms/x', 'http://127.0.0.1:9000', 'http://[::1]:9000/', 'https://idp.example']) {
      assert.equal(loadOidcIssuers(env([{ issuer, audience: 'a' }]))[0]!.issuer, issuer);
    }
  });

  test('several issuers: each names its accounts, and none gives the operator role unless it says so (issue 46)', () => {
    const account = '0b7c3c1e-5d5f-4d0a-9a55-2f1f5b0d6c11';
    assert.equal(
      refused([{ issuer: 'https://a.example', audience: 'x', accounts: '*' }, { issuer: 'https://b.example', audience: 'x' }]),
      'OIDC_ISSUERS[1.accounts]: with more than one issuer each must name the accounts it may sign in to (a list of account ids, or "*" for any).',
    );
    assert.match(refused([{ issuer: 'https://a.example', audience: 'x', accounts: ['acme'] }]), /^OIDC_ISSUERS\[0\.accounts(\.0)?\]: /);
    const [a, b] = loadOidcIssuers(env([
      { issuer: 'https://a.example', audience: 'x', accounts: '*', grantsOperator: true },
      { issuer: 'https://b.example', audience: 'x', accounts: [account] },
    ]));
    assert.deepEqual([a!.accounts, a!.grantsOperator, b!.accounts, b!.grantsOperator], ['*', true, [account], false]);
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
