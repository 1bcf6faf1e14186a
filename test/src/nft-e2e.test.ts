import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { SMTPServer } from 'smtp-server';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { rawCidOf } from '@green-impact/testing/shared/cid-by-hand';
import { startImageServer, testPng } from './support/images.js';
import { type CallResult, createUserAccount, graphqlClient, ok, startTestSystem } from './support/system.js';
import { assertConformingAnswer } from './support/answer-conformance.js';
import { until as poll } from './support/poll.js';

const NFT = 'SVC.NFT.zK';
const OPERATOR = 'nft-operator-key';
/** A job on an embedded network completes in well under a second (a mint draws no certificate: they are drawn on first view). */
const JOB_TIMEOUT_MS = 60_000;
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = JOB_TIMEOUT_MS) =>
  poll(read, done, what, timeoutMs);

/** A real SMTP server on 127.0.0.1 that keeps every message. */
async function startSmtp() {
  const messages: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The receiver code and claim link of a claim e-mail (quoted-printable undone). */
function claimOf(raw: string): { code: string; link: string } {
  const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const code = /receiver code: ([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const link = /(https?:\/\/\S+\/claim\?guid=[^\s"<]+)/.exec(text)?.[1];
  assert.ok(code && link, `no claim code or link in the message:\n${text.slice(0, 2000)}`);
  return { code, link: link.replace(/&amp;/g, '&') };
}

/**
 * NFTs end to end with the whole system on the embedded networks, on PGlite and on PostgreSQL (skipped, and
 * saying so, where no server is available): a real SMTP server receives
 * the claim e-mails and a local HTTP server serves the image. Mint with attributes → the full §4.13 fetch →
 * metadata bytes whose CID is recomputed → list by time range → transfer → ownerOf through /rpc →
 * certificates and pages → send by e-mail → claim with the code from the mail (no key) → ownerOf → revoke →
 * used codes refused → GraphQL mint and read.
 */
for (const db of testDatabases) {
  describe(`NFTs end to end through the gateway on ${db.name}`, { timeout: 300_000, skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let images: Awaited<ReturnType<typeof startImageServer>>;
    let key: string;
    const image = testPng();

    const post = async (body: Record<string, unknown>, headers: Record<string, string> = { 'x-api-key': key }): Promise<CallResult> => {
      const res = await fetch(`${system.gatewayUrl}/v1/call`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const answer = await res.json();
      if (res.status === 200) await assertConformingAnswer(system.gatewayUrl, String(body['solution']), String(body['operation']), answer);
      return { status: res.status, body: answer };
    };
    const nft = (operation: string, parameters: Record<string, unknown>, envelope: Record<string, unknown> = { version: 1, network: 'sepolia' }) =>
      ok(post({ solution: NFT, operation, ...envelope, parameters }), operation);
    const fetchJob = (jobId: string) => nft('fetch', { jobId }, {});
    const completed = async (jobId: string) => {
      const done = await until(() => fetchJob(jobId), (r) => ['completed', 'failed'].includes(r.info.status.Value), `job ${jobId}`);
      assert.equal(done.info.status.Value, 'completed', JSON.stringify(done));
      return done;
    };
    const rpc = async (method: string, params: unknown[]) => {
      const res = await fetch(`${system.gatewayUrl}/rpc/sepolia`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      assert.equal(res.status, 200);
      return ((await res.json()) as { result: any }).result;
    };
    /** ownerOf(tokenId) on the NFT contract, read through the gateway's public relay. */
    const ownerOnChain = async (contract: string, tokenId: string) => {
      const word: string = await rpc('eth_call', [{ to: contract, data: `0x6352211e${BigInt(tokenId).toString(16).padStart(64, '0')}` }, 'latest']);
      return `0x${word.slice(-40)}`;
    };
    const listed = async (guid: string) => (await nft('list', {}, {})).info.find((n: any) => n.guid === guid);
    const mint = async (name: string) => {
      const res = await nft('new', { name, description: `${name}: verified renewable output`, image: `${images.url}/solar.png`, attributes: { tCO2e: 5320, verified: true } });
      return completed(res.info.jobId);
    };

    before(async () => {
      smtp = await startSmtp();
      images = await startImageServer(image);
      system = await startTestSystem(db, OPERATOR, {
        nfts: { smtpUrl: smtp.url, mailFrom: '"Green Impact" <nft@impact.test>', image: { allowPrivateHosts: true } },
      });
      key = await createUserAccount(system.gatewayUrl, OPERATOR, 'NFT Issuer');
    });
    after(async () => {
      await system?.stop();
      await smtp?.stop();
      await new Promise<void>((resolve) => (images ? images.server.close(() => resolve()) : resolve()));
    });

    let first: { guid: string; nftId: string; txHash: string; contract: string; metadataCid: string; imageCid: string };
    let mintedBetween: [number, number];

    it('mints with attributes: fetch answers the full §4.13 result', async () => {
      const before = Date.now();
      const accepted = await nft('new', {
        name: 'Solar Park Südheide 2024',
        description: 'Avoided emissions of the solar park, 2024',
        image: `${images.url}/solar.png`,
        attributes: [{ trait_type: 'tCO2e avoided', value: 5320, display_type: 'number' }, { trait_type: 'project', value: 'Solar Park Südheide' }],
      });
      mintedBetween = [before, Date.now()];
      assert.deepEqual(Object.keys(accepted), ['statusCode', 'statusMessage', 'info']);
      assert.deepEqual(accepted.statusCode, 200);
      const done = await completed(accepted.info.jobId);
      const info = done.info;
      assert.equal(done.statusMessage, '');
      assert.deepEqual(Object.keys(info), [
        'status', 'request', 'result', 'hash', 'txnUrl', 'receipt', 'networkCost', 'networkFee', 'networkTotal',
        'certificateOfTrust', 'certificateOfTrustJPG', 'certificateOfTrustUrl', 'guid', 'type', 'timestampInMillis',
      ]);
      assert.deepEqual(info.request, {
        solution: NFT, version: 1, network: 'sepolia', operation: 'new',
        parameters: {
          name: 'Solar Park Südheide 2024', description: 'Avoided emissions of the solar park, 2024', image: `${images.url}/solar.png`,
          attributes: [{ trait_type: 'tCO2e avoided', value: 5320, display_type: 'number' }, { trait_type: 'project', value: 'Solar Park Südheide' }],
        },
      });
      const r = info.result;
      assert.deepEqual(Object.keys(r).sort(), ['guid', 'network', 'nftIPFSHash', 'nftId', 'nftImageIPFSHash', 'nftJson', 'nftTxHash', 'status', 'transferCodes', 'url']);
      assert.equal(r.status, 'created');
      assert.equal(r.network, 'sepolia');
      assert.equal(r.guid, info.guid);
      assert.match(r.nftId, /^\d+$/);
      assert.equal(r.nftTxHash, info.hash);
      assert.match(r.nftIPFSHash, /^bafkrei[a-z2-7]{52}$/);
      assert.match(r.nftImageIPFSHash, /^bafkrei[a-z2-7]{52}$/);
      assert.deepEqual(r.nftJson, {
        name: 'Solar Park Südheide 2024',
        description: 'Avoided emissions of the solar park, 2024',
        image: `ipfs://${r.nftImageIPFSHash}`,
        attributes: [{ trait_type: 'tCO2e avoided', value: 5320, display_type: 'number' }, { trait_type: 'project', value: 'Solar Park Südheide' }],
      });
      assert.deepEqual(r.url, {
        nft: `${system.gatewayUrl}/ipfs/${r.nftIPFSHash}`,
        image: `${system.gatewayUrl}/ipfs/${r.nftImageIPFSHash}`,
        transaction: `${system.gatewayUrl}/explorer/sepolia/tx/${info.hash}`,
      });
      assert.deepEqual(r.transferCodes, { owner: '', receiver: '' });
      assert.match(info.hash, /^0x[0-9a-f]{64}$/);
      assert.equal(info.txnUrl, null, 'embedded networks have no explorer');
      const receipt = info.receipt;
      assert.deepEqual(Object.keys(receipt), ['_type', 'blockHash', 'blockNumber', 'contractAddress', 'cumulativeGasUsed', 'from', 'gasPrice', 'gasUsed', 'hash', 'index', 'logs', 'logsBloom', 'status', 'to']);
      assert.equal(receipt._type, 'TransactionReceipt');
      assert.equal(receipt.status, 1);
      assert.equal(receipt.hash, info.hash);
      assert.ok(receipt.logs.length >= 1);
      for (const log of receipt.logs) {
        assert.deepEqual(Object.keys(log), ['_type', 'address', 'blockHash', 'blockNumber', 'data', 'index', 'topics', 'transactionHash', 'transactionIndex']);
        assert.equal(log.transactionHash, info.hash);
      }
      assert.ok(info.networkCost > 0);
      assert.equal(info.networkTotal, info.networkCost + info.networkFee);
      assert.equal(info.certificateOfTrust, `${system.gatewayUrl}/certificates/${info.guid}.pdf`);
      assert.equal(info.certificateOfTrustJPG, `${system.gatewayUrl}/certificates/${info.guid}.jpg`);
      assert.equal(info.certificateOfTrustUrl, `${system.gatewayUrl}/certificates/${info.guid}`);
      assert.deepEqual(info.type, { value: 'blockchain-job' });
      assert.ok(info.timestampInMillis >= before);
      first = { guid: info.guid, nftId: r.nftId, txHash: info.hash, contract: receipt.to, metadataCid: r.nftIPFSHash, imageCid: r.nftImageIPFSHash };
    });

    it('serves the metadata and image at their CIDs: the bytes recompute to them', async () => {
      const meta = await fetch(`${system.gatewayUrl}/ipfs/${first.metadataCid}`);
      assert.equal(meta.status, 200);
      const bytes = Buffer.from(await meta.arrayBuffer());
      assert.equal(rawCidOf(bytes), first.metadataCid);
      const json = JSON.parse(bytes.toString('utf8'));
      assert.equal(json.name, 'Solar Park Südheide 2024');
      assert.equal(json.image, `ipfs://${first.imageCid}`);
      const img = Buffer.from(await (await fetch(`${system.gatewayUrl}/ipfs/${first.imageCid}`)).arrayBuffer());
      assert.deepEqual(img, image);
      assert.equal(rawCidOf(img), first.imageCid);
      // The token URI on the chain names the metadata's CID: tokenURI(uint256) = 0xc87b56dd.
      const uri: string = await rpc('eth_call', [{ to: first.contract, data: `0xc87b56dd${BigInt(first.nftId).toString(16).padStart(64, '0')}` }, 'latest']);
      assert.ok(Buffer.from(uri.slice(2), 'hex').toString('utf8').includes(`ipfs://${first.metadataCid}`));
    });

    it('lists by time range, with timestamp as text; the last 20 without a range', async () => {
      const ranged = await nft('list', { from: mintedBetween[0], to: mintedBetween[1] }, {});
      assert.deepEqual(ranged.info.map((n: any) => n.guid), [first.guid]);
      const entry = ranged.info[0];
      assert.deepEqual(Object.keys(entry), ['guid', 'network', 'nftTxHash', 'nftId', 'nftIPFSHash', 'nftImageIPFSHash', 'nftJson', 'url', 'status', 'transferCodes', 'timestamp']);
      assert.match(entry.timestamp, /^\d{13}$/);
      assert.deepEqual((await nft('list', { to: mintedBetween[0] - 1 }, {})).info, []);
      assert.ok((await nft('list', {}, {})).info.some((n: any) => n.guid === first.guid));
    });

    it('certificates and pages are public: PDF, JPG, the landing page with the owner on chain, the explorer page', async () => {
      const pdf = await fetch(`${system.gatewayUrl}/certificates/${first.guid}.pdf`);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1'), '%PDF-');
      const jpg = await fetch(`${system.gatewayUrl}/certificates/${first.guid}.jpg`);
      assert.equal(jpg.headers.get('content-type'), 'image/jpeg');
      assert.deepEqual([...Buffer.from(await jpg.arrayBuffer()).subarray(0, 3)], [0xff, 0xd8, 0xff]);
      const custody = (await ownerOnChain(first.contract, first.nftId)).toLowerCase();
      const page = await (await fetch(`${system.gatewayUrl}/certificates/${first.guid}`)).text();
      assert.match(page, /Solar Park Südheide 2024/);
      assert.ok(page.includes(`${custody}</span> <span class="ok">(read from the chain now)`), page);
      const explorer = await fetch(`${system.gatewayUrl}/explorer/sepolia/tx/${first.txHash}`);
      assert.equal(explorer.status, 200);
      assert.match(await explorer.text(), new RegExp(`Transfer</strong> of token ${first.nftId} minted to <span class="mono">${custody}`));
    });

    it('transfers to an address: ownerOf on the chain is that address; the NFT reads transferred', async () => {
      const to = Wallet.createRandom().address;
      const accepted = await nft('transfer', { nftId: first.nftId, address: to.toLowerCase() });
      const done = await completed(accepted.info.jobId);
      assert.deepEqual(done.info.request.parameters, { nftId: first.nftId, address: to.toLowerCase(), destination: to.toLowerCase() });
      for (const k of ['networkCost', 'networkFee', 'networkTotal', 'guid', 'type', 'timestampInMillis']) assert.ok(k in done.info, k);
      assert.equal(done.info.guid, first.guid);
      assert.equal(await ownerOnChain(first.contract, first.nftId), to.toLowerCase());
      const entry = await listed(first.guid);
      assert.equal(entry.status, 'transferred');
      assert.equal(entry.transferredTo.toLowerCase(), to.toLowerCase());
    });

    it('sends by e-mail; the recipient claims with the code from the mail, without a key; the code is then spent', async () => {
      const minted = await mint('Wind Farm Nordsee');
      const { guid, nftId } = minted.info.result;
      const sent = await nft('send', { nftId, email: 'ann@example.org' }, { network: 'sepolia' });
      assert.equal(sent.info.status, 'emailed');
      assert.equal(sent.info.transferredTo, 'ann@example.org');
      assert.match(sent.info.timestamp, /^\d{13}$/);
      const mail = await until(async () => smtp.messages.find((m) => m.to.includes('ann@example.org')), Boolean, 'claim e-mail', 10_000);
      const { code, link } = claimOf(mail!.raw);
      assert.equal(code, sent.info.transferCodes.receiver);

      // The link opens the claim page, which posts the form (no key).
      const claimPage = await fetch(link);
      assert.equal(claimPage.status, 200);
      assert.match(await claimPage.text(), /<form method="post" action="claim">/);
      const wallet = Wallet.createRandom().address;
      const posted = await fetch(`${system.gatewayUrl}/claim`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: system.gatewayUrl },
        body: new URLSearchParams({ guid, code, address: wallet }).toString(),
      });
      assert.equal(posted.status, 200);
      const jobId = /<th>Transfer job<\/th><td><span class="mono">([0-9a-f-]{36})</.exec(await posted.text())?.[1];
      assert.ok(jobId);
      const done = await completed(jobId!);
      assert.doesNotMatch(JSON.stringify(done), new RegExp(code), 'no code in the job');
      assert.equal(await ownerOnChain(first.contract, nftId), wallet.toLowerCase());
      assert.equal((await listed(guid)).status, 'transferred');

      const again = await post({ solution: NFT, operation: 'claim', parameters: { receiverCode: code, address: wallet } }, {});
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { message: 'The receiver code was already used: the NFT was claimed.', code: 'FAILED_PRECONDITION', statusCode: 400, statusMessage: 'The receiver code was already used: the NFT was claimed.' });
    });

    it('revokes a send with the owner code (no key): created again; the receiver code and the owner code are refused after', async () => {
      const minted = await mint('Hydro Plant Alta');
      const { guid, nftId } = minted.info.result;
      const sent = await nft('send', { nftId, email: 'bob@example.org' }, { version: 1, network: 'sepolia' });
      const { owner, receiver } = sent.info.transferCodes;
      const revoked = await ok(post({ solution: NFT, operation: 'revoke', parameters: { ownerCode: owner } }, {}), 'revoke');
      assert.equal(revoked.info.guid, guid);
      assert.equal(revoked.info.status, 'created');
      assert.equal((await listed(guid)).status, 'created');
      const claim = await post({ solution: NFT, operation: 'claim', parameters: { receiverCode: receiver, address: Wallet.createRandom().address } }, {});
      assert.deepEqual(claim.body, { message: 'The send was revoked by its owner; the receiver code no longer works.', code: 'FAILED_PRECONDITION', statusCode: 400, statusMessage: 'The send was revoked by its owner; the receiver code no longer works.' });
      const twice = await post({ solution: NFT, operation: 'revoke', parameters: { ownerCode: owner } }, {});
      assert.deepEqual(twice.body, { message: 'The owner code was already used: the send was revoked.', code: 'FAILED_PRECONDITION', statusCode: 400, statusMessage: 'The owner code was already used: the send was revoked.' });
      const wrong = await post({ solution: NFT, operation: 'claim', parameters: { receiverCode: 'x'.repeat(43), address: Wallet.createRandom().address } }, {});
      assert.deepEqual(wrong.body, { message: 'The receiver code is not valid.', code: 'PERMISSION_DENIED', statusCode: 403, statusMessage: 'The receiver code is not valid.' });
      // new without a key is refused before anything else.
      const anonymous = await post({ solution: NFT, version: 1, network: 'sepolia', operation: 'new', parameters: { name: 'x', image: `${images.url}/solar.png` } }, {});
      assert.equal(anonymous.status, 401);
    });

    it('GraphQL: mintNft followed to COMPLETED, its nft; nft(guid) and nfts read it', async () => {
      const gql = graphqlClient(system.gatewayUrl, key);
      const minted = await gql(
        `mutation($input: MintNftInput!) { mintNft(input: $input) { job { id status nftGuid } } }`,
        { input: { network: 'sepolia', name: 'Biogas Plant', description: 'Methane captured', image: `${images.url}/solar.png`, attributes: [{ traitType: 'tCH4', value: 12.5 }] } },
      );
      assert.equal(minted.errors, undefined, JSON.stringify(minted.errors));
      const job = minted.data.mintNft.job;
      assert.equal(job.status, 'QUEUED');
      const done = await until(
        () => gql(`query($id: ID!) { job(id: $id) { status error nft { guid nftId status metadata { name attributes { traitType value } } certificate { pdf } } } }`, { id: job.id }),
        (r) => ['COMPLETED', 'FAILED'].includes(r.data?.job?.status),
        'GraphQL mint',
      );
      assert.equal(done.data.job.status, 'COMPLETED', JSON.stringify(done));
      const made = done.data.job.nft;
      assert.equal(made.guid, job.nftGuid);
      assert.equal(made.status, 'CREATED');
      assert.deepEqual(made.metadata, { name: 'Biogas Plant', attributes: [{ traitType: 'tCH4', value: 12.5 }] });
      assert.equal(made.certificate.pdf, `${system.gatewayUrl}/certificates/${made.guid}.pdf`);
      const read = await gql(`query($guid: ID!) { nft(guid: $guid) { guid nftId owner contractAddress } nfts(first: 1) { nodes { guid } } }`, { guid: made.guid });
      assert.equal(read.errors, undefined, JSON.stringify(read.errors));
      assert.equal(read.data.nft.nftId, made.nftId);
      assert.equal((await ownerOnChain(read.data.nft.contractAddress, made.nftId)).toLowerCase(), read.data.nft.owner.toLowerCase());
      assert.deepEqual(read.data.nfts.nodes, [{ guid: made.guid }]);
    });
  });
}
