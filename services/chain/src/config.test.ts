import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, envReader } from '@green-impact/shared/config';
import { defaultSignerKeyEnv, loadChainConfig, loadNetworkSpecs, loadNftSettings, loadRelayQuota } from './config.js';

const KEY = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const noFiles = (path: string): string => {
  throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
};
const load = (networks: unknown, env: Record<string, string> = {}, files: Record<string, string> = {}) =>
  loadNetworkSpecs({ CHAIN_NETWORKS: JSON.stringify(networks), ...env }, (p) => files[p] ?? noFiles(p));
const fails = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof ConfigError && message.test(err.message));

describe('CHAIN_NETWORKS', () => {
  it('defaults to the embedded networks sepolia, amoy and mumbai (alias of amoy)', () => {
    const specs = loadNetworkSpecs({}, noFiles);
    assert.deepEqual(specs.map((s) => [s.name, s.kind, s.kind === 'alias' ? s.aliasOf : undefined]), [
      ['sepolia', 'embedded', undefined],
      ['amoy', 'embedded', undefined],
      ['mumbai', 'alias', 'amoy'],
    ]);
  });

  it('reads real networks with keys from env or secret files, and aliases', () => {
    const specs = load(
      [
        { name: 'sepolia', chainId: 11155111, rpcUrl: 'https://rpc.example/v3/SECRET', explorerUrl: 'https://sepolia.etherscan.io', confirmations: 3,
          contracts: { keyValueStore: '0x5FbDB2315678afecb367f032d93F642f64180aa3', documentRegistry: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' } },
        { name: 'amoy', chainId: 80002, rpcUrl: 'https://amoy.example', nativeCurrencySymbol: 'POL', signerKeyFile: '/run/secrets/amoy', networkFee: 0.001 },
        { name: 'mumbai', aliasOf: 'amoy' },
      ],
      { [defaultSignerKeyEnv('sepolia')]: `0x${KEY}` },
      { '/run/secrets/amoy': `${KEY}\n` },
    );
    const [sepolia, amoy, mumbai] = specs;
    assert.equal(defaultSignerKeyEnv('sepolia'), 'CHAIN_SIGNER_KEY_SEPOLIA');
    assert.ok(sepolia!.kind === 'remote' && amoy!.kind === 'remote');
    assert.equal(sepolia.confirmations, 3);
    assert.equal(sepolia.signerKey, `0x${KEY}`);
    assert.equal(amoy.signerKey, `0x${KEY}`);
    assert.equal(amoy.confirmations, 2);
    assert.equal(amoy.networkFee, 0.001);
    assert.equal(sepolia.rpcTimeoutMs, 15_000);
    assert.deepEqual(mumbai, { kind: 'alias', name: 'mumbai', aliasOf: 'amoy' });
  });

  it('explains what is wrong, and never shows a key', () => {
    const base = { name: 'sepolia', chainId: 11155111, rpcUrl: 'https://rpc.example', signerKeyEnv: 'K' };
    const env = { K: KEY };
    fails(() => loadNetworkSpecs({ CHAIN_NETWORKS: '[{' }, noFiles), /^CHAIN_NETWORKS must be a JSON array of networks/);
    fails(() => load([], env), /non-empty JSON array/);
    fails(() => load([{ ...base, rpcUrl: 'ftp://x' }], env), /CHAIN_NETWORKS\[0\] \(sepolia\)\.rpcUrl must be an http\(s\) URL/);
    fails(() => load([{ ...base, chainId: 0 }], env), /chainId must be an integer from 1/);
    fails(() => load([{ ...base, confirmatons: 2 }], env), /unknown field\(s\) confirmatons/);
    fails(() => load([{ ...base, contracts: { documentRegistry: '0x12' } }], env), /contracts.documentRegistry must be a contract address/);
    fails(() => load([{ ...base, gasBumpPercent: 5 }], env), /gasBumpPercent must be an integer from 10/);
    fails(() => load([{ ...base, rpcTimeoutMs: 0 }], env), /rpcTimeoutMs must be an integer from 100 to 300000/);
    fails(() => load([{ ...base, signerKeyEnv: undefined }], {}), /no signer key; set CHAIN_SIGNER_KEY_SEPOLIA/);
    fails(() => load([base], { K: 'not-a-key-0123' }), /signer key from K must be 32 bytes of hex/);
    assert.throws(() => load([base], { K: `${KEY}ff` }), (err: Error) => !err.message.includes(KEY));
    fails(() => load([{ ...base, signerKeyFile: '/nope' }], env), /signer key file \/nope cannot be read: ENOENT/);
    fails(() => load([base, base], env), /network sepolia is listed twice/);
    fails(() => load([base, { name: 'mumbai', aliasOf: 'amoy' }], env), /alias of amoy, which is not listed/);
    fails(() => load([{ name: 'Sepolia!' }], env), /name must be a lower-case network name/);
    fails(() => loadNetworkSpecs({ CHAIN_NETWORKS: '[]', CHAIN_NETWORKS_FILE: '/x' }, noFiles), /not both/);
    fails(() => loadNetworkSpecs({ CHAIN_NETWORKS_FILE: '/etc/chain.json' }, noFiles), /CHAIN_NETWORKS_FILE \(\/etc\/chain.json\) cannot be read/);
  });

  it('reads a remote signer instead of a key, exclusive with signerKeyFile / signerKeyEnv', () => {
    const address = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
    const base = { name: 'sepolia', chainId: 11155111, rpcUrl: 'https://rpc.example' };
    const [spec] = load([{ ...base, remoteSigner: { url: 'https://signer.example:9000', address, authorizationFile: '/run/token' } }], {}, { '/run/token': 'Bearer t0k\n' });
    assert.ok(spec!.kind === 'remote');
    assert.equal(spec.signerKey, undefined);
    assert.deepEqual(spec.remoteSigner, { url: 'https://signer.example:9000/', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', timeoutMs: 15_000, authorization: 'Bearer t0k' });
    fails(() => load([{ ...base, signerKeyEnv: 'K', remoteSigner: { url: 'https://s', address } }], { K: KEY }), /set remoteSigner or signerKeyFile \/ signerKeyEnv, not both/);
    fails(() => load([{ ...base, remoteSigner: { url: 'ftp://s', address } }]), /remoteSigner.url must be the signer's http\(s\) JSON-RPC URL/);
    fails(() => load([{ ...base, remoteSigner: { url: 'https://s', address: '0x12' } }]), /remoteSigner.address must be the signer's account/);
    fails(() => load([{ ...base, remoteSigner: { url: 'https://s', address, key: KEY } }]), /remoteSigner: unknown field\(s\) key/);
    fails(() => load([{ ...base, remoteSigner: { url: 'https://s', address, authorizationFile: '/nope' } }]), /authorizationFile \/nope cannot be read: ENOENT/);
  });
});

describe('NFT settings', () => {
  it('default to the embedded gateway address, the mail outbox and 7-day codes', () => {
    const { publicBaseUrl, nfts } = loadNftSettings(envReader({}));
    assert.equal(publicBaseUrl, 'http://127.0.0.1:8080');
    assert.equal(nfts.smtpUrl, undefined);
    assert.equal(nfts.ipfsApiUrl, undefined);
    assert.equal(nfts.codeTtlMs, 7 * 24 * 3_600_000);
    assert.deepEqual(nfts.image, { maxBytes: 10 * 1024 * 1024, timeoutMs: 15_000, allowPrivateHosts: false });
  });

  it('read SMTP, pinning, code lifetime and image limits from the environment', () => {
    const { publicBaseUrl, nfts } = loadNftSettings(envReader({
      PUBLIC_BASE_URL: 'https://impact.example.org', SMTP_URL: 'smtps://user:pw@mail.example.org:465', MAIL_FROM: 'nft@example.org',
      MAIL_OUTBOX_DIR: '/var/mail-outbox', IPFS_API_URL: 'http://ipfs:5001', NFT_CODE_TTL_HOURS: '48', NFT_IMAGE_MAX_BYTES: '2048',
      NFT_IMAGE_TIMEOUT_MS: '500', NFT_IMAGE_ALLOW_PRIVATE_HOSTS: 'true',
    }));
    assert.equal(publicBaseUrl, 'https://impact.example.org');
    assert.deepEqual(nfts, {
      smtpUrl: 'smtps://user:pw@mail.example.org:465', mailOutboxDir: '/var/mail-outbox', mailFrom: 'nft@example.org', ipfsApiUrl: 'http://ipfs:5001',
      codeTtlMs: 48 * 3_600_000, image: { maxBytes: 2048, timeoutMs: 500, allowPrivateHosts: true },
    });
  });

  it('refuse what cannot work', () => {
    fails(() => loadNftSettings(envReader({ SMTP_URL: 'http://mail' })), /SMTP_URL must use smtp or smtps/);
    fails(() => loadNftSettings(envReader({ PUBLIC_BASE_URL: 'ftp://x' })), /PUBLIC_BASE_URL must use http or https/);
    fails(() => loadNftSettings(envReader({ NFT_CODE_TTL_HOURS: '0' })), /NFT_CODE_TTL_HOURS must be at least 1/);
  });
});

describe('relay quota (CHAIN_RELAY_*)', () => {
  it('defaults, values, off, and a burst below the rate named', () => {
    const bounds = { maxGas: 10_000_000, callTimeoutMs: 5_000 };
    assert.deepEqual(loadRelayQuota(envReader({})), { perSecond: 10, burst: 50, maxConcurrent: 4, pages: { perSecond: 10, burst: 50, maxConcurrent: 4 }, ...bounds });
    assert.deepEqual(
      loadRelayQuota(envReader({ CHAIN_RELAY_PER_SECOND: '100', CHAIN_RELAY_MAX_CONCURRENT: '16' })),
      { perSecond: 100, burst: 100, maxConcurrent: 16, pages: { perSecond: 100, burst: 100, maxConcurrent: 16 }, ...bounds },
    );
    assert.deepEqual(
      loadRelayQuota(envReader({ CHAIN_RELAY_PAGES_PER_SECOND: '30', CHAIN_RELAY_PAGES_MAX_CONCURRENT: '8', CHAIN_RELAY_MAX_GAS: '2000000', CHAIN_RELAY_CALL_TIMEOUT_MS: '1000' })),
      { perSecond: 10, burst: 50, maxConcurrent: 4, pages: { perSecond: 30, burst: 50, maxConcurrent: 8 }, maxGas: 2_000_000, callTimeoutMs: 1_000 },
    );
    fails(() => loadRelayQuota(envReader({ CHAIN_RELAY_MAX_GAS: '100' })), /CHAIN_RELAY_MAX_GAS/);
    fails(() => loadRelayQuota(envReader({ CHAIN_RELAY_PAGES_PER_SECOND: '80', CHAIN_RELAY_PAGES_BURST: '5' })), /CHAIN_RELAY_PAGES_BURST \(5\) must be at least CHAIN_RELAY_PAGES_PER_SECOND \(80\)/);
    assert.equal(loadRelayQuota(envReader({ CHAIN_RELAY_PER_SECOND: '0' })).perSecond, 0);
    fails(() => loadRelayQuota(envReader({ CHAIN_RELAY_PER_SECOND: '20', CHAIN_RELAY_BURST: '5' })), /CHAIN_RELAY_BURST \(5\) must be at least CHAIN_RELAY_PER_SECOND \(20\)/);
  });
});

describe('the chain process (loadChainConfig)', () => {
  const DATABASE_URL = 'postgres://chain@db:5432/green_impact';
  const config = (env: Record<string, string>) => loadChainConfig(envReader(env), env);

  it('reads its defaults, the networks with their signer keys from the same environment, and a replica without a worker', () => {
    const c = config({ DATABASE_URL });
    assert.equal(c.databaseUrl, DATABASE_URL);
    assert.equal(c.poolSize, 10);
    assert.equal(c.contentStore, 'database');
    assert.match(c.contentDir, /\/data\/content$/);
    assert.deepEqual(c.worker, { sender: { batchSize: 64, signerLeaseMs: 15_000, jobLeaseMs: 30_000, documentBatchSize: 512, documentBatchWindowMs: 50, keyValueBatchSize: 64, keyValueBatchWindowMs: 50, nftBatchSize: 16, nftBatchWindowMs: 50 } });
    assert.deepEqual(c.networks.map((n) => n.name), ['sepolia', 'amoy', 'mumbai']);
    assert.deepEqual(c.nodeReads, { ttlMs: 10_000, minedTtlMs: 3_600_000, maxEntries: 10_000 });
    assert.deepEqual(config({ DATABASE_URL, NODE_READ_CACHE_TTL_MS: '0', NODE_READ_CACHE_MINED_TTL_MS: '60000', NODE_READ_CACHE_MAX_ENTRIES: '50' }).nodeReads, { ttlMs: 0, minedTtlMs: 60_000, maxEntries: 50 });
    const remote = config({
      DATABASE_URL,
      CHAIN_WORKER: 'false',
      CHAIN_NETWORKS: JSON.stringify([{ name: 'sepolia', chainId: 11155111, rpcUrl: 'https://rpc.example' }]),
      CHAIN_SIGNER_KEY_SEPOLIA: KEY,
    });
    assert.equal(remote.worker, false);
    assert.deepEqual(remote.networks.map((n) => [n.name, n.kind === 'remote' ? n.signerKey?.replace(/^0x/, '') : undefined]), [['sepolia', KEY]]);
  });

  it('refuses what cannot work, naming the variable', () => {
    fails(() => config({}), /^DATABASE_URL is required/);
    fails(() => config({ DATABASE_URL, CONTENT_STORE: 'ipfs' }), /^CONTENT_STORE must be one of database, folder/);
    fails(() => config({ DATABASE_URL, DATABASE_POOL_SIZE: '0' }), /^DATABASE_POOL_SIZE must be at least 1/);
    // More mints than a third of a block holds.
    fails(() => config({ DATABASE_URL, CHAIN_NFT_BATCH: '65' }), /^CHAIN_NFT_BATCH must be at most 64/);
    fails(() => config({ DATABASE_URL, NODE_READ_CACHE_MAX_ENTRIES: '0' }), /^NODE_READ_CACHE_MAX_ENTRIES must be at least 1/);
  });
});
