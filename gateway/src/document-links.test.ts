import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DocumentLinks, type DocumentLinkSettings } from './document-links.js';

const JOB = '6f1c2f0e-8a51-4c39-9d0b-2d5c9a3f7e10';
const NOW = 1_767_225_600_000;
const settings = (over: Partial<DocumentLinkSettings> = {}): DocumentLinkSettings => ({
  secret: Buffer.from('a-secret-of-at-least-thirty-two-characters'),
  previousSecret: undefined,
  ttlSeconds: 3600,
  generated: false,
  ...over,
});
let clock = NOW;
const links = new DocumentLinks(settings(), () => clock);
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);
const signed = (epoch = 0) => queryOf(links.sign(`https://impact.example.org/jobs/${JOB}.html`, JOB, epoch));

test('a signed link names the page, the epoch and the expiry, and checks out until it expires', () => {
  clock = NOW;
  const url = links.sign(`https://impact.example.org/jobs/${JOB}.html`, JOB, 3);
  assert.match(url, new RegExp(`^https://impact\\.example\\.org/jobs/${JOB}\\.html\\?v=3&exp=${NOW / 1000 + 3600}&sig=[A-Za-z0-9_-]{43}$`));
  assert.deepEqual(links.check(JOB, queryOf(url)), { ok: true, linkEpoch: 3 });
  assert.deepEqual(links.check(JOB.toUpperCase(), queryOf(url)), { ok: true, linkEpoch: 3 }, 'job ids are compared case-insensitively');
  clock = NOW + 3599_000;
  assert.deepEqual(links.check(JOB, queryOf(url)), { ok: true, linkEpoch: 3 });
  clock = NOW + 3600_000;
  assert.deepEqual(links.check(JOB, queryOf(url)), { ok: false, reason: 'expired' });
  clock = NOW;
});

test('tampered links are refused without saying why: another job, epoch, expiry or signature', () => {
  const q = signed(1);
  const invalid = { ok: false, reason: 'invalid' };
  assert.deepEqual(links.check('00000000-0000-4000-8000-000000000000', q), invalid);
  assert.deepEqual(links.check(JOB, { ...q, v: '2' }), invalid, 'a revoked epoch cannot be moved forward by hand');
  assert.deepEqual(links.check(JOB, { ...q, v: '0' }), invalid);
  assert.deepEqual(links.check(JOB, { ...q, exp: String(Number(q['exp']) + 86_400) }), invalid, 'the expiry cannot be extended');
  const sig = q['sig']!;
  const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
  assert.deepEqual(links.check(JOB, { ...q, sig: flipped }), invalid);
  // The same bytes spelled otherwise (the last character's unused bits) are not our link either.
  const last = sig.at(-1)!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const sibling = alphabet[(alphabet.indexOf(last) & ~3) | ((alphabet.indexOf(last) + 1) & 3)]!;
  assert.deepEqual(links.check(JOB, { ...q, sig: sig.slice(0, -1) + sibling }), invalid);
  for (const broken of [{}, { ...q, sig: undefined }, { ...q, v: '-1' }, { ...q, exp: '1e9' }, { ...q, sig: sig.slice(1) }, { ...q, v: ['1', '2'] }, { ...q, v: '99999999999' }]) {
    assert.deepEqual(links.check(JOB, broken), invalid, JSON.stringify(broken));
  }
});

test('an expired link that was also altered is refused as altered: only genuine links are told they expired', () => {
  const q = signed();
  clock = NOW + 7200_000;
  assert.deepEqual(links.check(JOB, q), { ok: false, reason: 'expired' });
  assert.deepEqual(links.check(JOB, { ...q, exp: String(Number(q['exp']) - 1) }), { ok: false, reason: 'invalid' });
  clock = NOW;
});

test('another secret does not verify; during a rotation the previous secret still does', () => {
  const q = signed();
  const other = new DocumentLinks(settings({ secret: Buffer.from('another-secret-of-at-least-thirty-two-chars') }), () => clock);
  assert.deepEqual(other.check(JOB, q), { ok: false, reason: 'invalid' });
  const rotated = new DocumentLinks(settings({ secret: Buffer.from('another-secret-of-at-least-thirty-two-chars'), previousSecret: settings().secret }), () => clock);
  assert.deepEqual(rotated.check(JOB, q), { ok: true, linkEpoch: 0 });
  const fresh = queryOf(rotated.sign('https://x/jobs/j.html', JOB, 0));
  assert.deepEqual(links.check(JOB, fresh), { ok: false, reason: 'invalid' }, 'new links are signed with the new secret');
});

test('a query is judged as a link as soon as it carries any link parameter', () => {
  assert.equal(DocumentLinks.isLinkQuery({}), false);
  assert.equal(DocumentLinks.isLinkQuery({ lang: 'en' }), false);
  for (const name of ['v', 'exp', 'sig']) assert.equal(DocumentLinks.isLinkQuery({ [name]: '' }), true);
});

/** Known answers computed with node:crypto after docs/decisions.md, not with this code (scripts/known-answers/make-vectors.mjs). */
const vectors = JSON.parse(readFileSync(new URL('../test-vectors/signed-links.json', import.meta.url), 'utf8')) as {
  secret: string;
  documentLinks: { jobId: string; linkEpoch: number; exp: number; sig: string }[];
  reportLinks: { subject: (string | number)[]; accountId: string; exp: number; sig: string }[];
};

test('document and report links sign as the known answers say, and those answers check out', () => {
  const ttlSeconds = 3600;
  for (const v of vectors.documentLinks) {
    const known = new DocumentLinks(settings({ secret: Buffer.from(vectors.secret), ttlSeconds }), () => (v.exp - ttlSeconds) * 1000);
    assert.equal(known.sign('https://x.example/p', v.jobId, v.linkEpoch), `https://x.example/p?v=${v.linkEpoch}&exp=${v.exp}&sig=${v.sig}`);
    const atStart = new DocumentLinks(settings({ secret: Buffer.from(vectors.secret) }), () => (v.exp - 1) * 1000);
    assert.deepEqual(atStart.check(v.jobId, { v: String(v.linkEpoch), exp: String(v.exp), sig: v.sig }), { ok: true, linkEpoch: v.linkEpoch });
  }
  for (const v of vectors.reportLinks) {
    const known = new DocumentLinks(settings({ secret: Buffer.from(vectors.secret), ttlSeconds }), () => (v.exp - ttlSeconds) * 1000);
    assert.equal(known.signReport('https://x.example/r', v.subject, v.accountId), `https://x.example/r?acct=${encodeURIComponent(v.accountId)}&exp=${v.exp}&sig=${v.sig}`);
    assert.deepEqual(known.checkReport(v.subject, { acct: v.accountId, exp: String(v.exp), sig: v.sig }), { ok: true, accountId: v.accountId });
  }
});
