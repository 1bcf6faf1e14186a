#!/usr/bin/env node
// Prints a new Ed25519 key pair for signed callers (docs/decisions.md "Signed callers"): the private key for
// CALLER_SIGNING_KEY (a Secret: gateway-secrets or portfolio-secrets), the public key for CALLER_TRUSTED_KEYS
// (name=publicKey). Usage: node scripts/caller-keys.mjs [gateway|portfolio]
import { generateKeyPairSync } from 'node:crypto';

const name = process.argv[2] ?? 'gateway';
const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
process.stdout.write(`CALLER_SIGNING_KEY=${jwk.d}\nCALLER_TRUSTED_KEYS entry: ${name}=${jwk.x}\n`);
