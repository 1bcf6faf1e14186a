import { createHash, randomBytes } from 'node:crypto';
import { FailedPreconditionError, InvalidArgumentError, NotAuthorizedError } from '@green-impact/shared/errors';

/** Default lifetime of the codes of an e-mailed send. */
export const DEFAULT_CODE_TTL_MS = 7 * 24 * 3_600_000;

/**
 * A fresh transfer code: 256 random bits, base64url (43 characters). Codes are capabilities (whoever
 * holds the receiver code may claim the NFT), so they are long enough that guessing is hopeless and
 * only their hashes are stored.
 */
export function newCode(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a code. Codes are random, so a plain SHA-256 suffices (no salt, no stretching). */
export function codeHash(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** The longest text read as a code (codes are 43 characters). */
export const MAX_CODE_CHARS = 128;

/** A code as given by a client: trimmed, and shaped like one of ours (anything else cannot match). */
export function givenCode(code: string, field: 'receiverCode' | 'ownerCode'): string {
  const v = code.trim();
  if (!v) throw new InvalidArgumentError(`${field} is required.`, { field });
  // Ours are 43 characters; anything far longer is no code of this service.
  if (v.length > MAX_CODE_CHARS) throw new InvalidArgumentError(`${field} must be at most ${MAX_CODE_CHARS} characters.`, { field });
  return v;
}

/** The state of a send that decides whether one of its codes still works. */
export interface SendState {
  expiresAt: Date;
  claimedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * Why a code of this send no longer works (undefined: it works). Each reason is its own sentence, so a
 * client knows whether to ask for a new send. A send that expired and was replaced later says expired.
 */
export function codeRefusal(send: SendState, which: 'receiver' | 'owner', now: Date): Error | undefined {
  if (send.claimedAt) {
    return which === 'receiver'
      ? new FailedPreconditionError('The receiver code was already used: the NFT was claimed.')
      : new FailedPreconditionError('The NFT was already claimed; the send can no longer be revoked.');
  }
  const expired = send.expiresAt.getTime() <= now.getTime();
  if (send.revokedAt && !(expired && send.revokedAt.getTime() >= send.expiresAt.getTime())) {
    return which === 'receiver'
      ? new FailedPreconditionError('The send was revoked by its owner; the receiver code no longer works.')
      : new FailedPreconditionError('The owner code was already used: the send was revoked.');
  }
  if (expired) {
    return new FailedPreconditionError(
      `The ${which} code expired on ${send.expiresAt.toISOString()}; ${which === 'receiver' ? 'ask the sender to send the NFT again' : 'the NFT is available again'}.`,
    );
  }
  return undefined;
}

/** The answer to a code that matches no send (or another NFT than the one named). */
export function unknownCode(which: 'receiver' | 'owner'): Error {
  return new NotAuthorizedError(`The ${which} code is not valid.`);
}
