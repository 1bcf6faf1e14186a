#!/usr/bin/env node
// Writes the known-answer vectors that the tests hold the service's code to (issue 55): what an outsider
// re-implements from docs/chain.md "Proofs" and docs/decisions.md "Documents and links". Nothing here
// imports the services' code: the document hashes come from node:crypto, the CIDs are spelled out byte by
// byte after the CIDv1 spec (testing/src/shared/cid-by-hand.ts, not multiformats), keccak-256 is js-sha3's
// (installed with solc; the service uses ethers' own), the Merkle tree is re-built below from the
// documented rules, and the link signatures are node:crypto HMAC-SHA256 over the documented message.
//
//   node scripts/known-answers/make-vectors.mjs            rewrites the fixtures
//   node scripts/known-answers/make-vectors.mjs --check    exits 1 if they differ from what this computes
//
// The fixtures are committed: a change to the service that changes an answer fails its test; a change to
// the documented format changes this script and the fixtures together, in one reviewed commit.
import { createHash, createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import jsSha3 from 'js-sha3';
import { rawCidOf } from '../../testing/dist/shared/cid-by-hand.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const unhex = (h) => Buffer.from(h.replace(/^0x/, ''), 'hex');
const keccak = (bytes) => `0x${jsSha3.keccak256(bytes)}`;

/** CIDv1 of raw bytes, spelled out by hand (testing/src/shared/cid-by-hand.ts; so this runs after `npm run build`). */
const cidOf = rawCidOf;

/** anchorId: the job UUID's 16 bytes, right-padded with 16 zero bytes. */
const anchorIdOf = (uuid) => `0x${uuid.replace(/-/g, '').toLowerCase()}${'00'.repeat(16)}`;

const leafOf = (anchorId, sha256Hex, cid) => keccak(Buffer.concat([unhex(anchorId), unhex(sha256Hex), Buffer.from(cid, 'utf8')]));

/** Parent: keccak-256 of the two 32-byte children, the smaller (as unsigned bytes) first. */
const parentOf = (a, b) => (Buffer.compare(unhex(a), unhex(b)) <= 0 ? keccak(Buffer.concat([unhex(a), unhex(b)])) : keccak(Buffer.concat([unhex(b), unhex(a)])));

/** Levels bottom-up, pairing left to right; a node without a sibling moves up unchanged. */
function tree(leaves) {
  const levels = [leaves];
  while (levels.at(-1).length > 1) {
    const level = levels.at(-1);
    const next = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? parentOf(level[i], level[i + 1]) : level[i]);
    levels.push(next);
  }
  const proofs = leaves.map((_, leaf) => {
    const path = [];
    let index = leaf;
    for (const level of levels.slice(0, -1)) {
      const sibling = index % 2 === 0 ? index + 1 : index - 1;
      if (sibling < level.length) path.push(level[sibling]);
      index = Math.floor(index / 2);
    }
    return path;
  });
  return { root: levels.at(-1)[0], proofs };
}

const documents = [
  '',
  'hello',
  '<html><body><h1>Green Bond 2029</h1><p>CO₂ avoided: 1 234,5 t</p></body></html>',
  JSON.stringify({ framework: 'ICMA-2024', rows: [{ indicator: 'GHG', value: 1234.5 }] }),
  'x'.repeat(1000),
].map((text, i) => {
  const content = Buffer.from(text, 'utf8');
  const sha256 = createHash('sha256').update(content).digest('hex');
  const jobId = `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;
  const anchorId = anchorIdOf(jobId);
  const cid = cidOf(content);
  return { contentBase64: content.toString('base64'), sha256, cid, jobId, anchorId, leaf: leafOf(anchorId, sha256, cid) };
});

const innerNodes = [
  [documents[0].leaf, documents[1].leaf],
  [documents[1].leaf, documents[0].leaf],
  [`0x${'00'.repeat(32)}`, `0x${'ff'.repeat(32)}`],
  [`0x${'ff'.repeat(32)}`, `0x${'00'.repeat(32)}`],
].map(([a, b]) => ({ a, b, parent: parentOf(a, b) }));

const trees = [1, 2, 3, 4, 5].map((n) => {
  const leaves = documents.slice(0, n).map((d) => d.leaf);
  return { leaves, ...tree(leaves) };
});

const SECRET = 'known-answer secret: 32 characters or more, never used in production';
const documentLinks = [
  { jobId: '1B4E28BA-2FA1-4D3B-883F-0016D3CCA427', linkEpoch: 0, exp: 1_900_000_000 },
  { jobId: '1b4e28ba-2fa1-4d3b-883f-0016d3cca427', linkEpoch: 7, exp: 1_900_000_000 },
  { jobId: '00000000-0000-4000-8000-000000000001', linkEpoch: 4294967295, exp: 1 },
].map((l) => ({
  ...l,
  sig: createHmac('sha256', SECRET).update(`green-impact document link v1\n${l.jobId.toLowerCase()}\n${l.linkEpoch}\n${l.exp}`).digest('base64url'),
}));
const reportLinks = [
  { subject: ['investor', 'inv-1', 2024], accountId: '2f1e8c4a-0000-4000-8000-000000000abc', exp: 1_900_000_000 },
  { subject: ['portfolio', 'Core "A"\n', 2023], accountId: 'acct_1', exp: 1_900_000_000 },
].map((l) => ({
  ...l,
  sig: createHmac('sha256', SECRET).update(JSON.stringify(['green-impact report link v1', ...l.subject, l.accountId, l.exp])).digest('base64url'),
}));

const fixtures = {
  'services/chain/test-vectors/document-proofs.json': {
    about: 'Known answers for docs/chain.md "Proofs", computed by scripts/known-answers/make-vectors.mjs without the service\'s code.',
    documents,
    innerNodes,
    trees,
  },
  'gateway/test-vectors/signed-links.json': {
    about: 'Known answers for the signed document and report links (gateway/src/document-links.ts), computed by scripts/known-answers/make-vectors.mjs with node:crypto.',
    secret: SECRET,
    documentLinks,
    reportLinks,
  },
};

let differs = false;
for (const [path, value] of Object.entries(fixtures)) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const file = `${root}${path}`;
  if (process.argv.includes('--check')) {
    let old = '';
    try {
      old = readFileSync(file, 'utf8');
    } catch {}
    if (old !== text) {
      console.error(`${path} differs from what make-vectors.mjs computes`);
      differs = true;
    }
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${path}`);
  }
}
process.exit(differs ? 1 : 0);
