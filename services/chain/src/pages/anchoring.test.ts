import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobKind, JobStatus, type Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { anchoringPanel, explorerLinks, withAnchoring } from './anchoring.js';

const HASH = `0x${'ab'.repeat(32)}`;
const job = (over: Partial<Job> = {}): Job =>
  ({ id: 'j1', kind: JobKind.JOB_KIND_DOCUMENT, network: 'sepolia', status: JobStatus.JOB_STATUS_COMPLETED, txHash: HASH, blockNumber: 12, attempts: 1, createdAt: '', updatedAt: '', ...over }) as Job;

describe('anchoring facts around a document', () => {
  it("links the network's explorer for the transaction and its block, else the gateway's receipt page", () => {
    assert.deepEqual(explorerLinks(job({ txUrl: `https://sepolia.etherscan.io/tx/${HASH}` })), { tx: `https://sepolia.etherscan.io/tx/${HASH}`, block: 'https://sepolia.etherscan.io/block/12' });
    assert.deepEqual(explorerLinks(job()), { tx: `/explorer/sepolia/tx/${HASH}`, block: '/explorer/sepolia/block/12' });
    assert.deepEqual(explorerLinks(job({ txHash: undefined })), {});
  });

  it('puts the panel after <body> and its style before </head>, leaving the document between as it is', () => {
    const doc = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>T</title>\n</head>\n<body class="x">\n<main>m</main>\n</body>\n</html>\n';
    const panel = anchoringPanel({ job: job({ network: 'amoy<x>' }), cid: 'bafk', sha256: 'ff', anchoredSha256: 'ff', checkedAt: new Date('2026-01-02T03:04:05.678Z'), rawUrl: '/jobs/j1.html?raw=1' });
    const page = withAnchoring(doc, panel);
    assert.ok(page.startsWith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>T</title>\n<style>'));
    assert.ok(page.endsWith(`<body class="x">\n${panel.text}\n<main>m</main>\n</body>\n</html>\n`));
    assert.match(panel.text, /anchored on amoy&lt;x&gt;, read from the chain at <time datetime="2026-01-02T03:04:05Z">/);
    assert.match(panel.text, /<dt>Block<\/dt><dd><a href="\/explorer\/amoy%3Cx%3E\/block\/12">12<\/a><\/dd>/);
    // Without head or body: the style and panel in front of the document.
    assert.equal(withAnchoring('<p>x</p>', panel), `<style>${page.split('<style>')[1]!.split('</style>')[0]}</style>\n${panel.text}\n<p>x</p>`);
  });

  it('shows the inclusion proof when the chain service has one, and none when it has not', () => {
    const facts = { job: job({ document: { registryAddress: `0x${'aa'.repeat(20)}` } as Job['document'] }), cid: 'bafk', sha256: 'ab'.repeat(32), anchoredSha256: 'ab'.repeat(32), checkedAt: new Date(0), rawUrl: '/jobs/j1.html?raw=1' };
    const root = `0x${'ef'.repeat(32)}`;
    const proof = { format: 'greenimpact-document-proof/1', method: 'merkle', documentSha256: 'ab'.repeat(32), cid: 'bafk', anchorId: `0x${'12'.repeat(32)}`, leaf: `0x${'cd'.repeat(32)}`, path: [`0x${'01'.repeat(32)}`], root, network: 'sepolia', chainId: 11155111, contract: `0x${'5f'.repeat(20)}`, transaction: HASH, blockNumber: 12 };
    const withProof = anchoringPanel({ ...facts, proof }).text;
    assert.match(withProof, /<h3>Inclusion proof<\/h3>/);
    assert.ok(withProof.includes(root), 'the Merkle root');
    assert.ok(withProof.includes(`<dt>Registry contract</dt><dd><span class="mono">${proof.contract}</span>`), 'the contract holding the root, not the single-anchor registry');
    assert.ok(withProof.includes(`href="/explorer/sepolia/tx/${HASH}"`), 'the transaction linked as in the facts');
    assert.ok(withProof.indexOf('Inclusion proof') < withProof.indexOf('</aside>'), 'inside the panel');
    assert.doesNotMatch(anchoringPanel(facts).text, /Inclusion proof/);
  });
});
