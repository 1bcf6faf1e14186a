import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobKind, JobStatus, NftStatus, type Job, type Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { legacyNft, nftAnswer, nftFetchAnswer, nftOf, nftStatusName } from './nft-shapes.js';

const GUID = '3b0f6a51-2a44-4a7e-9a57-0c2f7e0d9a11';
const nft: Nft = {
  guid: GUID,
  network: 'sepolia',
  nftTxHash: '0xmint',
  nftId: '7',
  nftIpfsHash: 'bafkreimeta',
  nftImageIpfsHash: 'bafkreiimage',
  nftJson: {
    name: 'Solar Park',
    description: '12.4 GWh',
    image: 'ipfs://bafkreiimage',
    attributes: [{ traitType: 'tCO2e', value: 5320, displayType: 'number' }, { traitType: 'verified', value: true }],
  },
  url: { nft: 'https://x.org/ipfs/bafkreimeta', image: 'https://x.org/ipfs/bafkreiimage', transaction: 'https://scan.org/tx/0xmint' },
  status: NftStatus.NFT_STATUS_EMAILED,
  transferCodes: { owner: 'own', receiver: 'rec' },
  transferredTo: 'ann@example.org',
  timestamp: 1714557600123,
  certificateOfTrust: 'https://x.org/certificates/g.pdf',
  certificateOfTrustJpg: 'https://x.org/certificates/g.jpg',
  certificateOfTrustUrl: 'https://x.org/certificates/g',
  certificatePdfCid: 'bafkreipdf',
  certificateJpgCid: 'bafkreijpg',
  contractAddress: '0xcontract',
  ownerAddress: '0xcustody',
  mintJobId: 'job-1',
};
const mintJob: Job = {
  id: 'job-1',
  kind: JobKind.JOB_KIND_NFT_MINT,
  network: 'sepolia',
  status: JobStatus.JOB_STATUS_QUEUED,
  request: { solution: 'SVC.NFT.zK', version: 1, network: 'sepolia', operation: 'new', parameters: { name: 'Solar Park' } },
  attempts: 0,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:01.000Z',
  nftGuid: GUID,
};

test('the §2.10 NFT: the spec keys in its order, metadata with trait_type, timestamp as text', () => {
  const shaped = legacyNft(nft);
  assert.deepEqual(Object.keys(shaped), [
    'guid', 'network', 'nftTxHash', 'nftId', 'nftIPFSHash', 'nftImageIPFSHash', 'nftJson', 'url', 'status', 'transferCodes', 'transferredTo', 'timestamp',
  ]);
  assert.equal(shaped.timestamp, '1714557600123');
  assert.equal(shaped.status, 'emailed');
  assert.deepEqual(shaped.transferCodes, { owner: 'own', receiver: 'rec' });
  assert.deepEqual(shaped.nftJson, {
    name: 'Solar Park',
    description: '12.4 GWh',
    image: 'ipfs://bafkreiimage',
    attributes: [{ trait_type: 'tCO2e', value: 5320, display_type: 'number' }, { trait_type: 'verified', value: true }],
  });
  // transferredTo only when there is a recipient (§2.10: "present after sending by e-mail").
  const { transferredTo: _t, ...created } = nft;
  assert.equal('transferredTo' in legacyNft({ ...created, status: NftStatus.NFT_STATUS_CREATED }), false);
});

test('statuses: the spec names and the pending ones; an unknown status is a contract breach', () => {
  assert.deepEqual(
    [NftStatus.NFT_STATUS_MINTING, NftStatus.NFT_STATUS_CREATED, NftStatus.NFT_STATUS_TRANSFERRING, NftStatus.NFT_STATUS_TRANSFERRED, NftStatus.NFT_STATUS_EMAILED].map(nftStatusName),
    ['minting', 'created', 'transferring', 'transferred', 'emailed'],
  );
  assert.throws(() => nftStatusName(NftStatus.NFT_STATUS_UNSPECIFIED), { code: 'INTERNAL' });
  assert.throws(() => nftOf({}), { code: 'INTERNAL' });
});

test('list, send and revoke answer {statusCode, statusMessage, info}', () => {
  assert.deepEqual(nftAnswer([]), { statusCode: 200, statusMessage: '', info: [] });
});

test('fetch of a pending mint: every key of §4.13, the certificates null until the NFT exists', () => {
  const answer = nftFetchAnswer(mintJob);
  assert.deepEqual(Object.keys(answer.info), [
    'status', 'request', 'result', 'hash', 'txnUrl', 'receipt', 'networkCost', 'networkFee', 'networkTotal',
    'certificateOfTrust', 'certificateOfTrustJPG', 'certificateOfTrustUrl', 'guid', 'type', 'timestampInMillis',
  ]);
  assert.equal(answer.info.certificateOfTrust, null);
  assert.equal(answer.info.guid, GUID);
  assert.deepEqual(answer.info.status, { Value: 'queued' });
  const failed = nftFetchAnswer({ ...mintJob, status: JobStatus.JOB_STATUS_FAILED, error: 'reverted' });
  assert.equal(failed.statusMessage, 'reverted');
  assert.equal(Object.keys(failed.info).at(-1), 'error');
});

test('fetch of a completed mint carries the certificate URLs; other jobs are the plain fetch answer', () => {
  const done = nftFetchAnswer({ ...mintJob, status: JobStatus.JOB_STATUS_COMPLETED, nft });
  assert.equal(done.info.certificateOfTrust, 'https://x.org/certificates/g.pdf');
  assert.equal(done.info.certificateOfTrustJPG, 'https://x.org/certificates/g.jpg');
  assert.equal(done.info.certificateOfTrustUrl, 'https://x.org/certificates/g');
  const transfer = nftFetchAnswer({ ...mintJob, kind: JobKind.JOB_KIND_NFT_TRANSFER });
  assert.equal('certificateOfTrust' in transfer.info, false);
  assert.equal(transfer.info.guid, GUID);
});
