import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Metadata, status } from '@grpc/grpc-js';
import { ChainServiceService } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { signCall } from '@green-impact/shared/callers/call-metadata';
import { createGrpcClient } from '@green-impact/shared/grpc/client';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { createUserAccount, startTestSystem } from './support/system.js';
import { rawCall } from '@green-impact/testing/shared/raw-grpc-call';

const OPERATOR_KEY = 'signed-callers-operator-key';
const db = testDatabases.find((d) => d.name === 'pglite')!;


/**
 * Trust boundary 2 (gateway → services) on the whole system as `npm start` runs it: every service refuses
 * a caller named in plain metadata, or in a token addressed to another service, and serves the gateway's
 * signed calls; the gRPC ports listen on loopback only.
 */
/** The local addresses (kernel hex) with a listening TCP socket on `port`, IPv4 and IPv6 (Linux /proc). */
function listeningOn(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[3] === '0A' && f[1]?.endsWith(`:${hexPort}`))
      .map((f) => f[1]!.split(':')[0]!),
  );
}

describe('services trust only callers the gateway signed (whole system)', { skip: await skipReason(db) }, () => {
  let system: RunningSystem;
  let operator: Caller;

  before(async () => {
    system = await startTestSystem(db, OPERATOR_KEY);
    const accounts = createGrpcClient(IdentityServiceService, system.grpc.identity);
    const { account } = await accounts.authenticate({ apiKey: OPERATOR_KEY });
    accounts.close();
    operator = { accountId: account!.id, role: 'operator' };
  });
  after(() => system?.stop());

  const services = () => [
    { name: 'identity', address: system.grpc.identity, path: IdentityServiceService.listAccounts.path, read: IdentityServiceService.listAccounts.path, other: TaxonomyServiceService.getLanguages.path },
    { name: 'taxonomy', address: system.grpc.taxonomy, path: TaxonomyServiceService.addUnit.path, read: TaxonomyServiceService.getLanguages.path, other: IdentityServiceService.listAccounts.path },
    { name: 'portfolio', address: system.grpc.portfolio, path: PortfolioServiceService.getInvestors.path, read: PortfolioServiceService.getInvestors.path, other: ChainServiceService.listNetworks.path },
    { name: 'chain', address: system.grpc.chain!, path: ChainServiceService.listNetworks.path, read: ChainServiceService.listNetworks.path, other: PortfolioServiceService.getInvestors.path },
  ];

  it('binds every gRPC port to loopback', () => {
    for (const address of Object.values(system.grpc)) {
      assert.match(address, /^127\.0\.0\.1:\d+$/);
      // What the socket is bound to, as the kernel lists it, not the address the system reports.
      assert.deepEqual(listeningOn(Number(address.split(':')[1])), ['0100007F'], `${address}: listening sockets`);
    }
  });

  it('each service refuses x-account-id / x-account-role metadata without a token, even for a real operator account', async () => {
    for (const s of services()) {
      const m = new Metadata();
      m.set('x-account-id', operator.accountId);
      m.set('x-account-role', 'operator');
      const err = await rawCall(s.address, s.path, m);
      assert.equal(err?.code, status.UNAUTHENTICATED, `${s.name}: ${err?.details}`);
    }
  });

  it('each service refuses a valid token addressed to another service', async () => {
    for (const s of services()) {
      const err = await rawCall(s.address, s.path, signCall(new Metadata(), operator, s.other));
      assert.equal(err?.code, status.UNAUTHENTICATED, s.name);
      assert.match(err!.details, /for another service/);
    }
  });

  it('each service answers a gateway-signed call, and the gateway signs its own calls', async () => {
    for (const s of services()) {
      assert.equal((await rawCall(s.address, s.read, signCall(new Metadata(), operator, s.read)))?.details, undefined, s.name);
    }
    // Through the gateway: an API key checked by identity, an account created by identity for an operator.
    assert.match(await createUserAccount(system.gatewayUrl, OPERATOR_KEY, 'signed-callers-user'), /^gi_/);
  });
});
