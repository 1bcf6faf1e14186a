#!/usr/bin/env node
// Writes the dev overlay's Secrets as env files under secrets/ (git-ignored), random values made here, so
// no deployment shares a password or an operator key with anyone who has read the repository. The
// overlay's secretGenerator reads them; run this before `kubectl apply -k infra/k8s/overlays/dev`.
//
//   node infra/k8s/overlays/dev/make-secrets.mjs [overlay dir]
//
// Files that exist are kept: PostgreSQL keeps the password its volume was made with, and the operator key
// keeps working. Delete secrets/ (and the namespace's PostgreSQL volume) to start over.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const overlay = resolve(process.argv[2] ?? dirname(fileURLToPath(import.meta.url)));
const dir = join(overlay, 'secrets');
mkdirSync(dir, { recursive: true, mode: 0o700 });

const password = randomBytes(24).toString('hex'); // hex: safe in a URL's userinfo as it is
const databaseUrl = `postgres://green_impact:${password}@postgres:5432/green_impact`;
// Signed callers (docs/decisions.md): the gateway's and portfolio's Ed25519 keys, private halves in their
// Secrets, public halves in CALLER_TRUSTED_KEYS (green-impact-config), as scripts/caller-keys.mjs prints them.
const callerKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
const gatewayKey = callerKey();
const portfolioKey = callerKey();
const files = {
  'postgres.env': { POSTGRES_PASSWORD: password },
  'identity.env': { DATABASE_URL: databaseUrl, BOOTSTRAP_API_KEY: `gi_${randomBytes(32).toString('base64url')}` },
  'taxonomy.env': { DATABASE_URL: databaseUrl },
  'portfolio.env': { DATABASE_URL: databaseUrl, CALLER_SIGNING_KEY: portfolioKey.d },
  'chain.env': { DATABASE_URL: databaseUrl },
  'gateway.env': { DOCUMENT_LINK_SECRET: randomBytes(32).toString('base64url'), CALLER_SIGNING_KEY: gatewayKey.d },
  'caller-trust.env': { CALLER_TRUSTED_KEYS: `gateway=${gatewayKey.x},portfolio=${portfolioKey.x}` },
};

// All or nothing: the password is shared by postgres.env and every DATABASE_URL, so a set is made whole
// or kept whole.
const present = Object.keys(files).filter((name) => existsSync(join(dir, name)));
if (present.length > 0 && present.length < Object.keys(files).length) {
  console.error(`${dir} holds only ${present.join(', ')}: new files would not match their password. Delete ${dir} and run this again.`);
  process.exit(1);
}
const made = present.length === 0;
if (made) {
  for (const [name, values] of Object.entries(files)) {
    const text = Object.entries(values).map(([k, v]) => `${k}=${v}\n`).join('');
    writeFileSync(join(dir, name), text, { mode: 0o600, flag: 'wx' }); // 'wx': never over a file made meanwhile
  }
}
console.log(made ? `Wrote the dev Secrets to ${dir}.` : `Kept the dev Secrets in ${dir}.`);
console.log(`The first operator's API key is BOOTSTRAP_API_KEY in ${join(dir, 'identity.env')}.`);
