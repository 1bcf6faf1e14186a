import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@green-impact/shared/logger';
import { claimFromMail, decodedMail, startSmtpCapture } from '@green-impact/testing/chain/nft-fixtures';
import { claimEmail, claimUrl } from './claim-email.js';
import { createMailer } from './mailer.js';

const log = createLogger('mailer-test');
const code = 'Q2xhaW0tY29kZS1mb3ItdGVzdHMtb25seS0xMjM0NTY';
const message = () =>
  claimEmail({
    to: 'kim@example.org',
    nftName: 'Solar <Park> & "Co"',
    network: 'sepolia',
    tokenId: '7',
    guid: '0f9c3b8e-8a51-4c1e-9a7e-2b7f0d3c1a22',
    receiverCode: code,
    claimUrl: claimUrl('https://impact.example.org/', '0f9c3b8e-8a51-4c1e-9a7e-2b7f0d3c1a22', code),
    expiresAt: new Date('2025-06-08T12:00:00Z'),
    imageUrl: 'https://impact.example.org/ipfs/bafk',
  });

describe('claim e-mails', () => {
  let dir: string;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mail-outbox-'));
    smtp = await startSmtpCapture();
  });
  after(async () => {
    await smtp.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('carry the claim link and the receiver code, with the name escaped in HTML', () => {
    const m = message();
    assert.equal(m.subject, 'An NFT was sent to you: Solar <Park> & "Co"');
    assert.match(m.text, /receiver code: Q2xh/);
    assert.match(m.text, /expires on 2025-06-08 12:00 UTC/);
    assert.match(m.html, /<strong>Solar &lt;Park&gt; &amp; &quot;Co&quot;<\/strong>/);
    assert.match(m.html, new RegExp(`href="https://impact.example.org/claim\\?guid=0f9c3b8e-8a51-4c1e-9a7e-2b7f0d3c1a22#code=${code}"`));
    assert.doesNotMatch(m.html + m.text, /[?&]code=/, 'the code is never in a query string');
  });

  it('are written as .eml files to the outbox folder without SMTP_URL', async () => {
    const mailer = createMailer({ outboxDir: join(dir, 'outbox'), from: '"Green Impact" <nft@example.org>', log });
    const sent = await mailer.send(message());
    mailer.close();
    const files = await readdir(join(dir, 'outbox'));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /\.eml$/);
    assert.equal(sent.file, join(dir, 'outbox', files[0]!));
    const raw = await readFile(sent.file!, 'utf8');
    assert.match(raw, /^From: "?Green Impact"? <nft@example.org>$/m);
    assert.match(raw, /^Subject: =\?UTF-8\?Q\?An_NFT_was_sent_to_you/m);
    assert.match(raw, /^To: kim@example.org$/m);
    assert.match(raw, /multipart\/alternative/);
    assert.deepEqual(claimFromMail(raw), { code, link: `https://impact.example.org/claim?guid=0f9c3b8e-8a51-4c1e-9a7e-2b7f0d3c1a22#code=${code}` });
  });

  it('go through SMTP when SMTP_URL is set', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: join(dir, 'unused'), from: 'nft@example.org', log });
    assert.equal(mailer.description, `SMTP smtp://${new URL(smtp.url).host}`);
    await mailer.send(message());
    mailer.close();
    const got = smtp.messages.at(-1)!;
    assert.deepEqual(got.to, ['kim@example.org']);
    assert.equal(claimFromMail(got.raw).code, code);
    assert.match(got.raw, /^Subject: =\?UTF-8\?Q\?An_NFT_was_sent_to_you/m);
    assert.match(decodedMail(got.raw), /An NFT was sent to you: "Solar <Park> & "Co"" \(token 7 on sepolia\)/);
    await assert.rejects(readdir(join(dir, 'unused')), { code: 'ENOENT' });
  });
});
