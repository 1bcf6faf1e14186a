import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sign } from 'node:crypto';
import { Metadata, status } from '@grpc/grpc-js';
import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { createLogger } from '../logger.js';
import { createGrpcClient } from '../grpc/client.js';
import { implement, startGrpcServer, type StartedGrpcServer } from '../grpc/server.js';
import type { Caller } from '../caller.js';
import { METADATA_CALLER_TOKEN, signCall } from './call-metadata.js';
import { generateCallerKeyPair } from './caller-keys.js';
import { CallerSigner, TOKEN_REUSE_SECONDS, TOKEN_TTL_SECONDS } from './caller-signer.js';
import { callerTrust, useCallerTrust } from './caller-trust.js';
import { rawCall } from '@green-impact/testing/shared/raw-grpc-call';

const IDENTITY = 'greenimpact.identity.v1.IdentityService';
const TAXONOMY = 'greenimpact.taxonomy.v1.TaxonomyService';
const operator: Caller = { accountId: 'acc-operator', role: 'operator' };
// This process signs as the gateway and as portfolio, each with its own key, and trusts both.
const gateway = generateCallerKeyPair();
const portfolio = generateCallerKeyPair();
useCallerTrust(callerTrust({
  signing: { gateway: gateway.privateKey, portfolio: portfolio.privateKey },
  trusted: new Map([['gateway', gateway.publicKey], ['portfolio', portfolio.publicKey]]),
}));


const withToken = (token: string) => {
  const m = new Metadata();
  m.set(METADATA_CALLER_TOKEN, token);
  return m;
};

/**
 * Services believe only callers the gateway signed (docs/decisions.md "Signed callers"): the caller's
 * account and role come from an EdDSA token addressed to the service, never from plain metadata.
 */
describe('signed callers', () => {
  let server: StartedGrpcServer;
  const seen: (Caller | undefined)[] = [];

  before(async () => {
    const log = createLogger('signed-callers-test');
    const record = async (ctx: { caller: Caller | undefined }) => (seen.push(ctx.caller), {});
    const identity = implement(IDENTITY, IdentityServiceService, {
      getGroups: async (_req, ctx) => (seen.push(ctx.caller), { groups: ctx.caller ? [{ id: 1, group: `${ctx.caller.accountId}/${ctx.caller.role}` }] : [] }),
      authenticate: async (_req, ctx) => (seen.push(ctx.caller), { keyId: 'anonymous-ok' }),
    }, log);
    const taxonomy = implement(TAXONOMY, TaxonomyServiceService, {
      convertAmounts: async (_req, ctx) => (await record(ctx), { conversions: [] }),
      addUnit: async (_req, ctx) => (await record(ctx), {}) as never,
      recordFrameworkHolder: async (_req, ctx) => record(ctx),
    }, log);
    server = await startGrpcServer({
      services: [
        { name: IDENTITY, definition: IdentityServiceService, implementation: identity },
        { name: TAXONOMY, definition: TaxonomyServiceService, implementation: taxonomy },
      ],
      host: '127.0.0.1',
      port: 0,
      protoRoot,
      protoFiles: [protoFiles.identity, protoFiles.taxonomy],
      log,
    });
  });
  after(() => server.shutdown(500));

  it('refuses plain x-account-id / x-account-role metadata without a token (UNAUTHENTICATED, handler never runs)', async () => {
    const before = seen.length;
    const m = new Metadata();
    m.set('x-account-id', 'acc-operator');
    m.set('x-account-role', 'operator');
    const err = await rawCall(server.address, IdentityServiceService.getGroups.path, m);
    assert.equal(err?.code, status.UNAUTHENTICATED);
    assert.match(err!.details, /no caller token/);
    assert.equal((await rawCall(server.address, IdentityServiceService.authenticate.path, new Metadata()))?.code, status.UNAUTHENTICATED, 'an anonymous call must be signed too');
    assert.equal(seen.length, before);
  });

  it('accepts a gateway-signed call and gives the handler exactly the signed caller', async () => {
    const client = createGrpcClient(IdentityServiceService, server.address);
    const { groups } = await client.getGroups({}, { caller: operator });
    assert.deepEqual(groups, [{ id: 1, group: 'acc-operator/operator' }]);
    // Anonymous, but vouched for by the gateway (API-key checks, NFT claims): no caller.
    assert.equal((await client.authenticate({ apiKey: 'x' })).keyId, 'anonymous-ok');
    assert.equal(seen.at(-1), undefined);
    client.close();
  });

  it('ignores x-account-id / x-account-role sent beside a valid token: the token says who calls', async () => {
    const m = signCall(new Metadata(), { accountId: 'acc-user', role: 'user' }, IdentityServiceService.getGroups.path);
    m.set('x-account-id', 'acc-operator');
    m.set('x-account-role', 'operator');
    assert.equal(await rawCall(server.address, IdentityServiceService.getGroups.path, m), undefined);
    assert.deepEqual(seen.at(-1), { accountId: 'acc-user', role: 'user', requestId: (seen.at(-1) as Caller).requestId });
  });

  it('refuses a token addressed to another service', async () => {
    const forTaxonomy = signCall(new Metadata(), operator, TaxonomyServiceService.convertAmounts.path);
    const err = await rawCall(server.address, IdentityServiceService.getGroups.path, forTaxonomy);
    assert.equal(err?.code, status.UNAUTHENTICATED);
    assert.match(err!.details, /for another service/);
  });

  it('refuses an expired token', async () => {
    // Signed with the gateway's own key, two minutes ago.
    const old = new CallerSigner('gateway', gateway.privateKey, () => Date.now() - 120_000);
    const err = await rawCall(server.address, IdentityServiceService.getGroups.path, withToken(old.token(operator, IDENTITY)));
    assert.equal(err?.code, status.UNAUTHENTICATED);
    assert.match(err!.details, /expired/);
  });

  it('refuses a token signed with a key the service does not trust, and a tampered one', async () => {
    const stranger = new CallerSigner('gateway', generateCallerKeyPair().privateKey);
    const err = await rawCall(server.address, IdentityServiceService.getGroups.path, withToken(stranger.token(operator, IDENTITY)));
    assert.equal(err?.code, status.UNAUTHENTICATED);
    assert.match(err!.details, /not valid/);

    // A user's real token with the role changed to operator: the signature no longer matches.
    const real = new CallerSigner('gateway', gateway.privateKey).token({ accountId: 'acc-user', role: 'user' }, IDENTITY);
    const [h, p, s] = real.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'operator' })).toString('base64url')}.${s}`;
    assert.equal((await rawCall(server.address, IdentityServiceService.getGroups.path, withToken(forged)))?.code, status.UNAUTHENTICATED);

    // alg "none" and an unknown issuer.
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'gateway' })).toString('base64url')}.${p}.`;
    assert.equal((await rawCall(server.address, IdentityServiceService.getGroups.path, withToken(none)))?.code, status.UNAUTHENTICATED);
    const unknown = new CallerSigner('mallory', generateCallerKeyPair().privateKey).token(operator, IDENTITY);
    const e2 = await rawCall(server.address, IdentityServiceService.getGroups.path, withToken(unknown));
    assert.match(e2!.details, /does not trust/);
  });

  it('lets portfolio sign for its callers only the taxonomy reads it needs, and the holder records of its assets, with its own key', async () => {
    const asPortfolio = createGrpcClient(TaxonomyServiceService, server.address, { issuer: 'portfolio' });
    assert.deepEqual(await asPortfolio.convertAmounts({ reportingYear: 2024, conversions: [] }, { caller: operator }), { conversions: [] });
    assert.deepEqual(await asPortfolio.recordFrameworkHolder({ assetIdentifier: 'SE1', frameworkId: 1, exclusive: false }, { caller: operator }), {});
    assert.deepEqual(seen.at(-1), { ...operator, requestId: (seen.at(-1) as { requestId?: string }).requestId });
    await assert.rejects(asPortfolio.addUnit({ unitName: 'kWh', reportingYear: 2024 }, { caller: operator }), { code: 'UNAUTHENTICATED' });
    asPortfolio.close();
    const toIdentity = createGrpcClient(IdentityServiceService, server.address, { issuer: 'portfolio' });
    await assert.rejects(toIdentity.getGroups({}, { caller: operator }), { code: 'UNAUTHENTICATED' });
    toIdentity.close();
    // portfolio's key cannot pass for the gateway's.
    const posing = new CallerSigner('gateway', portfolio.privateKey).token(operator, TAXONOMY);
    assert.equal((await rawCall(server.address, TaxonomyServiceService.addUnit.path, withToken(posing)))?.code, status.UNAUTHENTICATED);
    // The gateway may change reference data for an operator.
    const asGateway = createGrpcClient(TaxonomyServiceService, server.address);
    await asGateway.addUnit({ unitName: 'kWh', reportingYear: 2024 }, { caller: operator });
    asGateway.close();
  });

  it('carries the person who acted (RFC 8693 act claim) to the handler, and refuses a token whose act is not well formed', async () => {
    const person: Caller = { accountId: 'acc-user', role: 'user', subject: 'auth0|5f1c', issuer: 'https://login.example.com/' };
    const client = createGrpcClient(IdentityServiceService, server.address);
    await client.getGroups({}, { caller: person });
    const got = seen.at(-1)!;
    assert.deepEqual(got, { ...person, requestId: got.requestId });
    // Half a person (no issuer) names nobody: the token carries no act, the caller no subject.
    await client.getGroups({}, { caller: { accountId: 'acc-user', role: 'user', subject: 'orphan' } });
    assert.equal(seen.at(-1)!.subject, undefined);
    client.close();

    // Signed with the gateway's own key, so only the claim's shape can refuse them.
    const signed = (act: unknown) => {
      const iat = Math.floor(Date.now() / 1000);
      const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid: 'gateway' })).toString('base64url');
      const body = Buffer.from(JSON.stringify({ iss: 'gateway', aud: IDENTITY, sub: 'acc-user', role: 'user', act, iat, exp: iat + 60 })).toString('base64url');
      return `${header}.${body}.${sign(null, Buffer.from(`${header}.${body}`), gateway.privateKey).toString('base64url')}`;
    };
    assert.equal(await rawCall(server.address, IdentityServiceService.getGroups.path, withToken(signed({ sub: 's', iss: 'https://i/' }))), undefined);
    for (const act of ['s', { sub: '', iss: 'https://i/' }, { sub: 's' }, { sub: 's'.repeat(256), iss: 'https://i/' }, { sub: 7, iss: 'https://i/' }, { sub: 'kim\nforged log line', iss: 'https://i/' }]) {
      const err = await rawCall(server.address, IdentityServiceService.getGroups.path, withToken(signed(act)));
      assert.equal(err?.code, status.UNAUTHENTICATED, JSON.stringify(act));
      assert.match(err!.details, /not valid/);
    }
    // The signer refuses to carry what the verifier would refuse.
    assert.throws(() => new CallerSigner('gateway', gateway.privateKey).token({ ...person, subject: 's'.repeat(256) }, IDENTITY), RangeError);
  });

  it('signs once per caller and service for a while, not once per call', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const signer = new CallerSigner('gateway', generateCallerKeyPair().privateKey, () => now);
    const first = signer.token(operator, IDENTITY);
    assert.equal(signer.token(operator, IDENTITY), first);
    assert.notEqual(signer.token(operator, TAXONOMY), first);
    assert.notEqual(signer.token({ accountId: 'acc-operator', role: 'user' }, IDENTITY), first);
    assert.notEqual(signer.token({ ...operator, subject: 'p', issuer: 'https://i/' }, IDENTITY), first, 'another person acting: another token');
    now += TOKEN_REUSE_SECONDS * 1000;
    const renewed = signer.token(operator, IDENTITY);
    assert.notEqual(renewed, first);
    const { iat, exp } = JSON.parse(Buffer.from(renewed.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    assert.equal(exp - iat, TOKEN_TTL_SECONDS);
  });
});
