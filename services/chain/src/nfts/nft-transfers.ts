import { randomUUID } from 'node:crypto';
import type { ClaimNftRequest, Nft, RevokeNftSendRequest, SendNftRequest, TransferNftRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { actedByColumns, type Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, UnavailableError } from '@green-impact/shared/errors';
import type { EntityManager } from 'typeorm';
import type { JobRow } from '../jobs/entities.js';
import type { NftTransferPayload } from '../jobs/job-types.js';
import { claimEmail, claimUrl } from '../mail/claim-email.js';
import type { Mailer } from '../mail/mailer.js';
import type { NamedNetwork } from '../networks/network-registry.js';
import { NftEntity, type NftRow } from './nft-entities.js';
import { validEmail, validWalletAddress } from './nft-rules.js';
import { requireAvailable } from './nft-store.js';
import type { NftServiceDeps } from './nfts.js';
import { toNft } from './nft-view.js';
import { codeHash, codeRefusal, givenCode, newCode, unknownCode } from './transfer-codes.js';

export interface NftTransferDeps extends NftServiceDeps {
  mailer: Mailer;
  /** Lifetime of the codes of an e-mailed send. */
  codeTtlMs: number;
}

/** Keys of a request echo that hold transfer codes: never stored with the job. */
const SECRET_ECHO_KEYS = /^(receiver_?code|owner_?code|code)$/i;

/**
 * Moving an NFT out of custody: transfer (a job to a wallet address), send (an e-mail carrying a claim
 * link with the receiver code; the owner code cancels it), claim (the receiver code and a wallet
 * address start the transfer) and revoke. Only the account that minted an NFT may transfer or send it;
 * claim and revoke are authorized by their codes alone (the recipient has no account).
 */
export class NftTransfers {
  constructor(private readonly d: NftTransferDeps) {}

  async transfer(caller: Caller, req: TransferNftRequest): Promise<{ job: JobRow; replayed: boolean }> {
    const named = this.d.networks.resolve(req.network);
    const address = validWalletAddress(req.address);
    const row = await this.owned(caller, named, req.nftId);
    const fingerprint = { op: 'nft_transfer', network: named.name, guid: row.guid, address };
    const replay = await this.d.jobs.findReplay(caller, req.idempotencyKey, fingerprint);
    if (replay) return replay;
    const custody = named.network.signerAddress;
    if (address === custody) throw new InvalidArgumentError(`address ${address} is the service's custody wallet, which holds the NFT already.`);
    requireAvailable(row);
    const echo = req.requestEcho && Object.keys(req.requestEcho).length > 0
      ? req.requestEcho
      : { network: named.name, nftId: row.tokenId, address };
    return this.d.jobs.create(
      {
        caller,
        kind: 'nft_transfer',
        network: named.name,
        chainNetwork: row.chainNetwork,
        signer: custody,
        request: echo,
        payload: transferPayload(row, custody, address),
        fingerprint,
        idempotencyKey: req.idempotencyKey,
      },
      async (m, jobId) => {
        const now = new Date();
        requireAvailable(await this.d.store.lock(m, row.guid), now);
        await closeExpiredSend(m, row.guid, now);
        await m.getRepository(NftEntity).update(
          { guid: row.guid },
          { status: 'transferring', transferJobId: jobId, transferredTo: address, sendExpiresAt: null, statusChangedAt: new Date() },
        );
      },
    );
  }

  /**
   * E-mails the recipient a claim link with the receiver code; answers the NFT, EMAILED, with both codes
   * in clear (the only time: only their hashes are kept). When the mail cannot be sent, nothing changes.
   */
  async send(caller: Caller, req: SendNftRequest): Promise<Nft> {
    const named = this.d.networks.resolve(req.network);
    const email = validEmail(req.email);
    const row = await this.owned(caller, named, req.nftId);
    requireAvailable(row);
    const codes = { owner: newCode(), receiver: newCode() };
    const sendId = randomUUID();
    const expiresAt = new Date(Date.now() + this.d.codeTtlMs);
    await this.d.ds.transaction(async (m) => {
      const now = new Date();
      requireAvailable(await this.d.store.lock(m, row.guid), now);
      await closeExpiredSend(m, row.guid, now);
      await m.query(
        `INSERT INTO chain.nft_sends (id, nft_guid, email, owner_code_hash, receiver_code_hash, expires_at, acted_by_subject, acted_by_issuer)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [sendId, row.guid, email, codeHash(codes.owner), codeHash(codes.receiver), expiresAt, ...actedByColumns(caller)],
      );
      await m.getRepository(NftEntity).update({ guid: row.guid }, { status: 'emailed', transferredTo: email, sendExpiresAt: expiresAt, statusChangedAt: new Date() });
    });
    const base = this.d.view.publicBaseUrl.replace(/\/+$/, '');
    try {
      await this.d.mailer.send(
        claimEmail({
          to: email,
          nftName: row.metadata.name,
          network: row.network,
          tokenId: row.tokenId ?? '',
          guid: row.guid,
          receiverCode: codes.receiver,
          claimUrl: claimUrl(base, row.guid, codes.receiver),
          expiresAt,
          imageUrl: `${base}/ipfs/${row.imageCid}`,
        }),
      );
    } catch (err) {
      // Undo the send: the recipient never got the code.
      await this.d.ds.transaction(async (m) => {
        await m.query(`DELETE FROM chain.nft_sends WHERE id = $1`, [sendId]);
        await m.getRepository(NftEntity).update({ guid: row.guid, status: 'emailed' }, { status: 'created', transferredTo: null, sendExpiresAt: null, statusChangedAt: new Date() });
      });
      throw mailError(err);
    }
    this.d.log.info({ guid: row.guid, tokenId: row.tokenId, sendId }, 'NFT sent by e-mail');
    return toNft((await this.d.store.byGuid(row.guid))!, this.d.view, { codes });
  }

  /** Receiver code + wallet address → the transfer job (under the owning account); the code is spent. */
  async claim(req: ClaimNftRequest): Promise<{ job: JobRow; replayed: boolean }> {
    const code = givenCode(req.receiverCode, 'receiverCode');
    const address = validWalletAddress(req.address);
    const hash = codeHash(code);
    const send = await this.d.store.sendByCodeHash('receiver', hash);
    if (!send || (req.guid?.trim() && req.guid.trim().toLowerCase() !== send.nftGuid)) throw unknownCode('receiver');
    const row = (await this.d.store.byGuid(send.nftGuid))!;
    const owner: Caller = { accountId: row.accountId, role: 'user' };
    const fingerprint = { op: 'nft_claim', guid: row.guid, address, code: hash };
    const replay = await this.d.jobs.findReplay(owner, req.idempotencyKey, fingerprint);
    if (replay) return replay;
    const refusal = codeRefusal(send, 'receiver', new Date());
    if (refusal) throw refusal;
    const named = this.d.networks.resolve(row.network);
    const custody = named.network.signerAddress;
    if (address === custody) throw new InvalidArgumentError(`address ${address} is the service's custody wallet; give the wallet that should receive the NFT.`);
    return this.d.jobs.create(
      {
        caller: owner,
        kind: 'nft_claim',
        network: row.network,
        chainNetwork: row.chainNetwork,
        signer: custody,
        request: withoutCodes(req.requestEcho) ?? { guid: row.guid, address },
        payload: transferPayload(row, custody, address),
        fingerprint,
        idempotencyKey: req.idempotencyKey,
      },
      async (m, jobId) => {
        const locked = (await this.d.store.sendByCodeHash('receiver', hash, m, true))!;
        const late = codeRefusal(locked, 'receiver', new Date());
        if (late) throw late;
        await m.query(`UPDATE chain.nft_sends SET claimed_at = now(), claim_address = $2, claim_job_id = $3 WHERE id = $1`, [locked.id, address, jobId]);
        const moved = await m.getRepository(NftEntity).update(
          { guid: row.guid, status: 'emailed' },
          { status: 'transferring', transferJobId: jobId, transferredTo: address, sendExpiresAt: null, statusChangedAt: new Date() },
        );
        if (!moved.affected) throw new FailedPreconditionError(`NFT ${row.tokenId ?? row.guid} is no longer waiting to be claimed.`);
      },
    );
  }

  /** Owner code → the e-mailed send is cancelled; the NFT is created (available) again. */
  async revoke(req: RevokeNftSendRequest): Promise<{ message: string; nft: Nft }> {
    const hash = codeHash(givenCode(req.ownerCode, 'ownerCode'));
    const send = await this.d.store.sendByCodeHash('owner', hash);
    if (!send || (req.guid?.trim() && req.guid.trim().toLowerCase() !== send.nftGuid)) throw unknownCode('owner');
    const refusal = codeRefusal(send, 'owner', new Date());
    if (refusal) throw refusal;
    await this.d.ds.transaction(async (m) => {
      const locked = (await this.d.store.sendByCodeHash('owner', hash, m, true))!;
      const late = codeRefusal(locked, 'owner', new Date());
      if (late) throw late;
      await m.query(`UPDATE chain.nft_sends SET revoked_at = now() WHERE id = $1`, [locked.id]);
      await m.getRepository(NftEntity).update(
        { guid: send.nftGuid, status: 'emailed' },
        { status: 'created', transferredTo: null, sendExpiresAt: null, statusChangedAt: new Date() },
      );
    });
    return { message: 'The send was revoked; the NFT is available again.', nft: toNft((await this.d.store.byGuid(send.nftGuid))!, this.d.view) };
  }

  private owned(caller: Caller, named: NamedNetwork, nftId: string): Promise<NftRow> {
    return this.d.store.owned(caller, { name: named.name, chainNetwork: named.aliasOf ?? named.name, contract: named.network.contracts.nft }, nftId);
  }
}

function transferPayload(row: NftRow, from: string, to: string): Record<string, unknown> {
  if (!row.tokenId) throw new FailedPreconditionError(`NFT ${row.guid} is still being minted.`);
  const payload: NftTransferPayload = { guid: row.guid, tokenId: row.tokenId, from, to };
  return payload as unknown as Record<string, unknown>;
}

/** An expired send that still looks open is closed, so a new transfer or send can start. */
async function closeExpiredSend(m: EntityManager, guid: string, now: Date): Promise<void> {
  // The same clock as the availability check that allowed it (the service's, not the database's).
  await m.query(
    `UPDATE chain.nft_sends SET revoked_at = $2 WHERE nft_guid = $1 AND claimed_at IS NULL AND revoked_at IS NULL AND expires_at <= $2`,
    [guid, now],
  );
}

function withoutCodes(echo: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!echo || Object.keys(echo).length === 0) return undefined;
  const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !SECRET_ECHO_KEYS.test(k)));
  const out = strip(echo);
  const params = out['parameters'];
  if (params && typeof params === 'object' && !Array.isArray(params)) out['parameters'] = strip(params as Record<string, unknown>);
  return out;
}

/** A permanent refusal by the mail server (5xx) is the request's problem; anything else may pass. */
function mailError(err: unknown): Error {
  const e = err as { responseCode?: number; response?: string };
  if (typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600) {
    return new FailedPreconditionError(`The mail server refused the message (${String(e.response ?? e.responseCode).slice(0, 200)}); the NFT was not sent.`);
  }
  return new UnavailableError('The e-mail could not be sent; the NFT was not sent. Please retry later.', { cause: err });
}
