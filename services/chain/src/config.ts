import { NETWORK_NAME } from '@green-impact/proto/rules';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getAddress, isAddress } from 'ethers';
import { ConfigError, listingLimits, serviceDatabase, type Env, type EnvReader, type ListingLimits, type ServiceDatabaseSettings } from '@green-impact/shared/config';
import { DEFAULT_MAIL_FROM } from './mail/mailer.js';
import { DEFAULT_IMAGE_FETCH } from './nfts/image-source.js';
import { DEFAULT_CODE_TTL_MS } from './nfts/transfer-codes.js';
import { DEFAULT_PUBLIC_BASE_URL, type NftOptions } from './nfts/nft-options.js';
import { DEFAULT_RELAY_QUOTA, type RelayQuotaSettings } from './networks/relay-quota.js';
import { DEFAULT_NODE_READS, type NodeReadSettings } from './pages/node-read-cache.js';
import { DEFAULT_RELAY_CALL_TIMEOUT_MS, DEFAULT_RELAY_MAX_GAS } from './networks/relay-bounds.js';
import type { RemoteSignerSpec } from './networks/remote-signer.js';
import type { SenderTuning } from './worker/job-sender.js';
import { DEFAULT_BATCH_TUNING } from './worker/job-batches.js';
import { DEFAULT_RPC_TIMEOUT_MS, DEFAULT_TUNING, embeddedNetworkSpecs, type NetworkSpec, type NetworkTuning, type RemoteNetworkSpec } from './networks/network-spec.js';

/** The chain service's environment as its own process (its bus: KAFKA_*, read by create-bus.ts). */
export interface ChainConfig extends ServiceDatabaseSettings {
  networks: NetworkSpec[];
  /** CONTENT_DIR, absolute. */
  contentDir: string;
  /** database: every replica reads what any wrote, no shared volume; folder: CONTENT_DIR alone. */
  contentStore: 'database' | 'folder';
  /** CHAIN_WORKER: this replica sends and confirms transactions (CHAIN_SEND_BATCH, CHAIN_*_LEASE_MS), or false. */
  worker: false | { sender: SenderTuning };
  publicBaseUrl: string;
  nfts: NftOptions;
  relayQuota: RelayQuotaSettings;
  limits: ListingLimits;
  /** The cache of the public pages' chain reads (NODE_READ_CACHE_*), which spares the relay's pages quota. */
  nodeReads: NodeReadSettings;
}

/** Everything the chain service reads, checked before anything connects; `environment` for the signer keys' variables, named in CHAIN_NETWORKS. */
export function loadChainConfig(env: EnvReader, environment: Env): ChainConfig {
  return {
    ...serviceDatabase(env),
    networks: loadNetworkSpecs(environment),
    contentDir: resolve(env.string('CONTENT_DIR', './data/content')),
    contentStore: env.oneOf('CONTENT_STORE', ['database', 'folder'] as const, 'database'),
    worker: env.bool('CHAIN_WORKER', true)
      ? {
          sender: {
            batchSize: env.int('CHAIN_SEND_BATCH', 64, { min: 1, max: 1000 }),
            signerLeaseMs: env.int('CHAIN_SIGNER_LEASE_MS', 15_000, { min: 1_000, max: 600_000 }),
            jobLeaseMs: env.int('CHAIN_JOB_LEASE_MS', 30_000, { min: 1_000, max: 3_600_000 }),
            documentBatchSize: env.int('CHAIN_DOCUMENT_BATCH', DEFAULT_BATCH_TUNING.documentBatchSize, { min: 1, max: 4096 }),
            documentBatchWindowMs: env.int('CHAIN_DOCUMENT_BATCH_WINDOW_MS', DEFAULT_BATCH_TUNING.documentBatchWindowMs, { min: 0, max: 10_000 }),
            keyValueBatchSize: env.int('CHAIN_KV_BATCH', DEFAULT_BATCH_TUNING.keyValueBatchSize, { min: 1, max: 1024 }),
            keyValueBatchWindowMs: env.int('CHAIN_KV_BATCH_WINDOW_MS', DEFAULT_BATCH_TUNING.keyValueBatchWindowMs, { min: 0, max: 10_000 }),
            // 64 mints (about 150k gas each with their URI) stay within a third of a 30M-gas block.
            nftBatchSize: env.int('CHAIN_NFT_BATCH', DEFAULT_BATCH_TUNING.nftBatchSize, { min: 1, max: 64 }),
            nftBatchWindowMs: env.int('CHAIN_NFT_BATCH_WINDOW_MS', DEFAULT_BATCH_TUNING.nftBatchWindowMs, { min: 0, max: 10_000 }),
          },
        }
      : false,
    ...loadNftSettings(env),
    relayQuota: loadRelayQuota(env),
    limits: listingLimits(env),
    nodeReads: {
      ttlMs: env.int('NODE_READ_CACHE_TTL_MS', DEFAULT_NODE_READS.ttlMs, { min: 0, max: 3_600_000 }),
      minedTtlMs: env.int('NODE_READ_CACHE_MINED_TTL_MS', DEFAULT_NODE_READS.minedTtlMs, { min: 0, max: 86_400_000 }),
      maxEntries: env.int('NODE_READ_CACHE_MAX_ENTRIES', DEFAULT_NODE_READS.maxEntries, { min: 1, max: 1_000_000 }),
    },
  };
}

const NAME = NETWORK_NAME;
const KEY = /^(0x)?[0-9a-fA-F]{64}$/;
const REMOTE_FIELDS = new Set([
  'name', 'chainId', 'rpcUrl', 'explorerUrl', 'confirmations', 'nativeCurrencySymbol', 'signerKeyFile', 'signerKeyEnv',
  'contracts', 'pollIntervalMs', 'stuckAfterMs', 'maxGasBumps', 'gasBumpPercent', 'maxStringValueBytes', 'networkFee',
  'rpcTimeoutMs', 'remoteSigner',
]);
const REMOTE_SIGNER_FIELDS = ['url', 'address', 'timeoutMs', 'authorizationFile'];
const CONTRACT_FIELDS = ['keyValueStore', 'documentRegistry', 'documentRoots', 'nft'] as const;

/** The env variable a network's signer key is read from when neither signerKeyFile nor signerKeyEnv is set. */
export function defaultSignerKeyEnv(network: string): string {
  return `CHAIN_SIGNER_KEY_${network.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The networks of this service. CHAIN_NETWORKS (JSON) or CHAIN_NETWORKS_FILE (a path to the same JSON,
 * e.g. a mounted ConfigMap) lists them; with neither, the embedded default runs local networks named
 * sepolia, amoy and mumbai (an alias of amoy). Signer keys never sit in that JSON: each comes from a
 * file (signerKeyFile, e.g. a mounted Secret), from the env variable named by signerKeyEnv, or from
 * CHAIN_SIGNER_KEY_<NAME>. Everything is checked here, before anything starts.
 */
export function loadNetworkSpecs(env: Env, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): NetworkSpec[] {
  const inline = env['CHAIN_NETWORKS']?.trim();
  const file = env['CHAIN_NETWORKS_FILE']?.trim();
  if (inline && file) throw new ConfigError('Set CHAIN_NETWORKS or CHAIN_NETWORKS_FILE, not both.');
  let text: string;
  let source: string;
  if (inline) {
    text = inline;
    source = 'CHAIN_NETWORKS';
  } else if (file) {
    source = `CHAIN_NETWORKS_FILE (${file})`;
    try {
      text = readFile(file);
    } catch (err) {
      throw new ConfigError(`${source} cannot be read: ${(err as Error).message}`);
    }
  } else {
    return embeddedNetworkSpecs();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${source} must be a JSON array of networks: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new ConfigError(`${source} must be a non-empty JSON array of networks.`);
  const specs = parsed.map((entry, i) => networkSpec(entry, `${source}[${i}]`, env, readFile));
  const names = new Set<string>();
  for (const s of specs) {
    if (names.has(s.name)) throw new ConfigError(`${source}: network ${s.name} is listed twice.`);
    names.add(s.name);
  }
  for (const s of specs) {
    if (s.kind !== 'alias') continue;
    const target = specs.find((t) => t.name === s.aliasOf);
    if (!target) throw new ConfigError(`${source}: network ${s.name} is an alias of ${s.aliasOf}, which is not listed.`);
    if (target.kind === 'alias') throw new ConfigError(`${source}: network ${s.name} is an alias of ${s.aliasOf}, which is an alias itself.`);
  }
  return specs;
}

function networkSpec(entry: unknown, at: string, env: Env, readFile: (path: string) => string): NetworkSpec {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ConfigError(`${at} must be an object.`);
  const o = entry as Record<string, unknown>;
  const name = o['name'];
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new ConfigError(`${at}.name must be a lower-case network name (letters, digits, - and _), got ${JSON.stringify(name)}.`);
  }
  const where = `${at} (${name})`;
  if ('aliasOf' in o) {
    const extra = Object.keys(o).filter((k) => k !== 'name' && k !== 'aliasOf');
    if (extra.length) throw new ConfigError(`${where}: an alias has only name and aliasOf, got also ${extra.join(', ')}.`);
    if (typeof o['aliasOf'] !== 'string' || !NAME.test(o['aliasOf'])) throw new ConfigError(`${where}.aliasOf must be a network name.`);
    return { kind: 'alias', name, aliasOf: o['aliasOf'] };
  }
  const unknown = Object.keys(o).filter((k) => !REMOTE_FIELDS.has(k));
  if (unknown.length) throw new ConfigError(`${where}: unknown field(s) ${unknown.join(', ')}; known: ${[...REMOTE_FIELDS].join(', ')}, or name + aliasOf.`);

  const int = (field: string, fallback: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const v = o[field] ?? fallback;
    if (v === undefined) throw new ConfigError(`${where}.${field} is required.`);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new ConfigError(`${where}.${field} must be an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, got ${JSON.stringify(v)}.`);
    }
    return v;
  };
  const url = (field: string, required: boolean): string | undefined => {
    const v = o[field];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string') throw new ConfigError(`${where}.${field} is required (an http(s) URL).`);
    try {
      const u = new URL(v);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
    } catch {
      throw new ConfigError(`${where}.${field} must be an http(s) URL.`);
    }
    return v;
  };

  const contractsRaw = o['contracts'] ?? {};
  if (typeof contractsRaw !== 'object' || contractsRaw === null) throw new ConfigError(`${where}.contracts must be an object of addresses.`);
  const contracts: RemoteNetworkSpec['contracts'] = {};
  for (const [k, v] of Object.entries(contractsRaw)) {
    if (!(CONTRACT_FIELDS as readonly string[]).includes(k)) throw new ConfigError(`${where}.contracts.${k} is unknown; known: ${CONTRACT_FIELDS.join(', ')}.`);
    if (typeof v !== 'string' || !isAddress(v)) throw new ConfigError(`${where}.contracts.${k} must be a contract address (0x + 40 hex digits).`);
    contracts[k as (typeof CONTRACT_FIELDS)[number]] = v;
  }
  const networkFee = o['networkFee'] ?? DEFAULT_TUNING.networkFee;
  if (typeof networkFee !== 'number' || !(networkFee >= 0)) throw new ConfigError(`${where}.networkFee must be a number ≥ 0 (native coin).`);
  const symbol = o['nativeCurrencySymbol'] ?? 'ETH';
  if (typeof symbol !== 'string' || !/^[A-Za-z0-9]{1,11}$/.test(symbol)) throw new ConfigError(`${where}.nativeCurrencySymbol must be a short symbol such as ETH or POL.`);

  const tuning: NetworkTuning = {
    confirmations: int('confirmations', 2, 1, 1_000),
    pollIntervalMs: int('pollIntervalMs', DEFAULT_TUNING.pollIntervalMs, 50, 600_000),
    stuckAfterMs: int('stuckAfterMs', DEFAULT_TUNING.stuckAfterMs, 1_000, 86_400_000),
    maxGasBumps: int('maxGasBumps', DEFAULT_TUNING.maxGasBumps, 0, 100),
    gasBumpPercent: int('gasBumpPercent', DEFAULT_TUNING.gasBumpPercent, 10, 1_000),
    maxStringValueBytes: int('maxStringValueBytes', DEFAULT_TUNING.maxStringValueBytes, 1, 1_000_000),
    networkFee,
  };
  return {
    kind: 'remote',
    name,
    chainId: int('chainId', undefined, 1),
    rpcUrl: url('rpcUrl', true)!,
    explorerUrl: url('explorerUrl', false),
    nativeCurrencySymbol: symbol,
    ...(o['remoteSigner'] !== undefined ? { remoteSigner: remoteSigner(o, where, readFile) } : { signerKey: signerKey(o, name, where, env, readFile) }),
    contracts,
    rpcTimeoutMs: int('rpcTimeoutMs', DEFAULT_RPC_TIMEOUT_MS, 100, 300_000),
    ...tuning,
  };
}

/**
 * remoteSigner: {url, address, timeoutMs?, authorizationFile?}: the key stays in a signer speaking
 * Web3Signer's eth_signTransaction (remote-signer.ts); exclusive with signerKeyFile / signerKeyEnv.
 */
function remoteSigner(o: Record<string, unknown>, where: string, readFile: (path: string) => string): RemoteSignerSpec {
  const r = o['remoteSigner'];
  if (o['signerKeyFile'] !== undefined || o['signerKeyEnv'] !== undefined) {
    throw new ConfigError(`${where}: set remoteSigner or signerKeyFile / signerKeyEnv, not both.`);
  }
  if (typeof r !== 'object' || r === null || Array.isArray(r)) throw new ConfigError(`${where}.remoteSigner must be an object {url, address}.`);
  const s = r as Record<string, unknown>;
  const unknown = Object.keys(s).filter((k) => !REMOTE_SIGNER_FIELDS.includes(k));
  if (unknown.length) throw new ConfigError(`${where}.remoteSigner: unknown field(s) ${unknown.join(', ')}; known: ${REMOTE_SIGNER_FIELDS.join(', ')}.`);
  let url: URL;
  try {
    url = new URL(String(s['url']));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(`${where}.remoteSigner.url must be the signer's http(s) JSON-RPC URL.`);
  }
  if (typeof s['address'] !== 'string' || !isAddress(s['address'])) {
    throw new ConfigError(`${where}.remoteSigner.address must be the signer's account (0x + 40 hex digits).`);
  }
  const timeoutMs = s['timeoutMs'] ?? DEFAULT_RPC_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 300_000) {
    throw new ConfigError(`${where}.remoteSigner.timeoutMs must be an integer from 100 to 300000.`);
  }
  let authorization: string | undefined;
  const authFile = s['authorizationFile'];
  if (authFile !== undefined) {
    if (typeof authFile !== 'string' || !authFile) throw new ConfigError(`${where}.remoteSigner.authorizationFile must be a file path.`);
    try {
      authorization = readFile(authFile).trim();
    } catch (err) {
      throw new ConfigError(`${where}: remoteSigner.authorizationFile ${authFile} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
    }
  }
  return { url: url.toString(), address: getAddress(s['address']), timeoutMs, authorization };
}

function signerKey(o: Record<string, unknown>, name: string, where: string, env: Env, readFile: (path: string) => string): string {
  const file = o['signerKeyFile'];
  const envName = o['signerKeyEnv'] ?? defaultSignerKeyEnv(name);
  let value: string | undefined;
  let source: string;
  if (file !== undefined) {
    if (typeof file !== 'string' || !file) throw new ConfigError(`${where}.signerKeyFile must be a file path.`);
    source = `signer key file ${file}`;
    try {
      value = readFile(file).trim();
    } catch (err) {
      throw new ConfigError(`${where}: ${source} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
    }
  } else {
    if (typeof envName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(envName)) throw new ConfigError(`${where}.signerKeyEnv must be an env variable name.`);
    source = envName;
    value = env[envName]?.trim();
    if (!value) throw new ConfigError(`${where}: no signer key; set ${envName}, or signerKeyFile / signerKeyEnv in the network's entry.`);
  }
  // Never echo the value: it is a private key.
  if (!KEY.test(value)) throw new ConfigError(`${where}: the signer key from ${source} must be 32 bytes of hex (64 hex digits, optionally 0x-prefixed).`);
  return value.startsWith('0x') ? value : `0x${value}`;
}

/**
 * NFT settings of the standalone service (the embedded launcher passes the same options itself):
 * PUBLIC_BASE_URL (where clients reach the gateway: metadata, image, certificate and claim URLs),
 * SMTP_URL (else .eml files in MAIL_OUTBOX_DIR), MAIL_FROM, IPFS_API_URL (optional pinning),
 * NFT_CODE_TTL_HOURS (send codes, default 168 = 7 days), NFT_IMAGE_MAX_BYTES, NFT_IMAGE_TIMEOUT_MS and
 * NFT_IMAGE_ALLOW_PRIVATE_HOSTS (fetching images from private addresses; off by default).
 */
export function loadNftSettings(env: EnvReader): { publicBaseUrl: string; nfts: NftOptions } {
  const publicBaseUrl = env.url('PUBLIC_BASE_URL', ['http', 'https']) ?? DEFAULT_PUBLIC_BASE_URL;
  const mailOutboxDir = env.optionalString('MAIL_OUTBOX_DIR');
  return {
    publicBaseUrl,
    nfts: {
      smtpUrl: env.url('SMTP_URL', ['smtp', 'smtps']),
      ...(mailOutboxDir ? { mailOutboxDir: resolve(mailOutboxDir) } : {}),
      mailFrom: env.string('MAIL_FROM', DEFAULT_MAIL_FROM),
      ipfsApiUrl: env.url('IPFS_API_URL', ['http', 'https']),
      codeTtlMs: env.int('NFT_CODE_TTL_HOURS', DEFAULT_CODE_TTL_MS / 3_600_000, { min: 1, max: 24 * 365 }) * 3_600_000,
      image: {
        maxBytes: env.int('NFT_IMAGE_MAX_BYTES', DEFAULT_IMAGE_FETCH.maxBytes, { min: 1_024, max: 100 * 1024 * 1024 }),
        timeoutMs: env.int('NFT_IMAGE_TIMEOUT_MS', DEFAULT_IMAGE_FETCH.timeoutMs, { min: 100, max: 300_000 }),
        allowPrivateHosts: env.bool('NFT_IMAGE_ALLOW_PRIVATE_HOSTS', false),
      },
    },
  };
}

/** CHAIN_RELAY_*: the public relay's own budget on each network's node (relay-quota.ts); a rate of 0 turns it off. */
export function loadRelayQuota(env: EnvReader): RelayQuotaSettings {
  const perSecond = env.int('CHAIN_RELAY_PER_SECOND', DEFAULT_RELAY_QUOTA.perSecond, { min: 0, max: 100_000 });
  const burst = env.int('CHAIN_RELAY_BURST', Math.max(DEFAULT_RELAY_QUOTA.burst, perSecond), { min: 1, max: 1_000_000 });
  if (perSecond > 0 && burst < perSecond) throw new ConfigError(`CHAIN_RELAY_BURST (${burst}) must be at least CHAIN_RELAY_PER_SECOND (${perSecond}).`);
  const maxConcurrent = env.int('CHAIN_RELAY_MAX_CONCURRENT', DEFAULT_RELAY_QUOTA.maxConcurrent, { min: 1, max: 10_000 });
  // The pages' budget, apart from anonymous /rpc: the same numbers unless set.
  const pagesPerSecond = env.int('CHAIN_RELAY_PAGES_PER_SECOND', perSecond, { min: 0, max: 100_000 });
  const pagesBurst = env.int('CHAIN_RELAY_PAGES_BURST', Math.max(burst, pagesPerSecond), { min: 1, max: 1_000_000 });
  if (pagesPerSecond > 0 && pagesBurst < pagesPerSecond) {
    throw new ConfigError(`CHAIN_RELAY_PAGES_BURST (${pagesBurst}) must be at least CHAIN_RELAY_PAGES_PER_SECOND (${pagesPerSecond}).`);
  }
  return {
    perSecond,
    burst,
    maxConcurrent,
    pages: { perSecond: pagesPerSecond, burst: pagesBurst, maxConcurrent: env.int('CHAIN_RELAY_PAGES_MAX_CONCURRENT', maxConcurrent, { min: 1, max: 10_000 }) },
    maxGas: env.int('CHAIN_RELAY_MAX_GAS', DEFAULT_RELAY_MAX_GAS, { min: 21_000, max: 1_000_000_000 }),
    callTimeoutMs: env.int('CHAIN_RELAY_CALL_TIMEOUT_MS', DEFAULT_RELAY_CALL_TIMEOUT_MS, { min: 100, max: 120_000 }),
  };
}
