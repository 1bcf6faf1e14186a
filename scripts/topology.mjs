// The processes of the multi-process topology (each service and the gateway its own process, as on
// Kubernetes): entry file and environment of each, from the parent's environment. Used by
// start-distributed.mjs and by the tests that start, kill and restart single processes.
//
// Any port may be 0: the process binds a free one and reports it over its IPC channel
// (services/shared/src/listening.ts). So a process starts only after the processes it calls reported
// theirs, and is given their real addresses: nothing picks a port in advance and hopes it stays free.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';

const host = '127.0.0.1';
const BACKENDS = ['identity', 'taxonomy', 'portfolio', 'chain'];

/**
 * [{ name, entry, needs, env(listening) }] in start order. `needs`: the processes this one calls, which must
 * be listening before it starts. env(listening) is the environment that differs from the parent's, given
 * the ports the processes started so far reported ({ name: { grpc, metrics } }). A needed process that is
 * not running is left out of the gateway; portfolio is given an address that resolves nowhere.
 */
export function topologyProcesses(parentEnv) {
  const keys = callerKeys(parentEnv);
  const service = (name, defaultPort, needs = [], extra = () => ({})) => {
    // One METRICS_PORT for every child would collide: each service gets its own (or its default).
    const metrics = parentEnv[`${name.toUpperCase()}_METRICS_PORT`];
    return {
      name,
      entry: `services/${name}/dist/index.js`,
      needs,
      env: (listening) => ({
        GRPC_PORT: parentEnv[`${name.toUpperCase()}_GRPC_PORT`] ?? String(defaultPort),
        GRPC_HOST: host,
        ...keys.env(name),
        ...(metrics !== undefined ? { METRICS_PORT: metrics } : {}),
        ...extra(listening),
      }),
    };
  };
  const address = (listening, name) => (listening[name] ? `${host}:${listening[name].grpc}` : undefined);
  return [
    service('identity', 50051),
    service('taxonomy', 50052),
    service('portfolio', 50053, ['taxonomy'], (listening) => ({
      TAXONOMY_GRPC_ADDR: address(listening, 'taxonomy') ?? 'taxonomy.not-started.invalid:50052',
    })),
    service('chain', 50054, [], () => ({ CONTENT_DIR: parentEnv.CONTENT_DIR ?? 'data/content' })),
    {
      name: 'gateway',
      entry: 'gateway/dist/index.js',
      needs: BACKENDS,
      env: (listening) => ({
        PORT: parentEnv.PORT ?? '8080',
        ...keys.env('gateway'),
        ...Object.fromEntries(
          BACKENDS.filter((b) => listening[b]).map((b) => [`${b.toUpperCase()}_GRPC_ADDR`, address(listening, b)]),
        ),
      }),
    },
  ];
}

/** The environment that starts `name` again on the very ports it reported (its callers keep its address). */
export function samePortsEnv(name, ports) {
  if (name === 'gateway') return { PORT: String(ports.http) };
  return { GRPC_PORT: String(ports.grpc), METRICS_PORT: String(ports.metrics ?? 0) };
}

/** The parent's environment as every child inherits it: without the one METRICS_PORT they cannot share. */
export function inheritedEnv(parentEnv) {
  const { METRICS_PORT: _shared, ...inherited } = parentEnv;
  return inherited;
}

/**
 * Resolves with the ports `child` (spawned with an IPC channel) reports once it listens; rejects when it
 * exits first or reports nothing within `timeoutMs`.
 */
export function listeningPorts(child, name, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message) => {
      if (!message || typeof message !== 'object' || !message.listening) return;
      done();
      resolve(message.listening);
    };
    const onExit = (code, signal) => {
      done();
      reject(new Error(`${name} exited (${signal ?? code}) before it listened`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${name} reported no listening ports within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * Caller keys of one topology (docs/decisions.md "Signed callers"): the gateway's (CALLER_SIGNING_KEY of the
 * parent when set, so a tool of the parent can sign as the gateway too; else made here) and portfolio's
 * (made here), and which public keys each service trusts. Made once per topology: a restarted process gets
 * the environment it had.
 */
function callerKeys(parentEnv) {
  const pair = (seed) => {
    const privateKey = seed
      ? createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed, 'base64url')]), format: 'der', type: 'pkcs8' })
      : generateKeyPairSync('ed25519').privateKey;
    return { private: privateKey.export({ format: 'jwk' }).d, public: createPublicKey(privateKey).export({ format: 'jwk' }).x };
  };
  const gateway = pair(parentEnv.CALLER_SIGNING_KEY);
  const portfolio = pair();
  return {
    env(name) {
      if (name === 'gateway') return { CALLER_SIGNING_KEY: gateway.private };
      const trusted = [`gateway=${gateway.public}`, ...(name === 'taxonomy' ? [`portfolio=${portfolio.public}`] : [])];
      return { CALLER_TRUSTED_KEYS: trusted.join(','), CALLER_SIGNING_KEY: name === 'portfolio' ? portfolio.private : '' };
    },
  };
}
