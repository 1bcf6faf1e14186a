import { InvalidArgumentError } from '@green-impact/shared/errors';
import {
  decryptField,
  encryptField,
  fingerprintMatches,
  keyFingerprint,
  MASKED,
  parseEncryptionKey,
  WRONG_KEY_MESSAGE,
} from '@green-impact/shared/pii';
import { MSG } from '../messages.js';

/**
 * Investor PII at rest (ARCHITECTURE §3 PII), as identity does for users: with a key, investor_name and
 * investor_email are AES-256-GCM ciphertexts bound by AAD to their account, investor and field, and the
 * record keeps an HMAC fingerprint of the key so a read tells "no key" (masked) from "wrong key" (a clear
 * INVALID_ARGUMENT). The identifier stays a plain lookup key.
 */
export const PII_FIELDS = ['investorName', 'investorEmail'] as const;
export type PiiField = (typeof PII_FIELDS)[number];
export type PiiValues = Partial<Record<PiiField, string>>;

/** The stored PII of one investor and what it is bound to. */
export interface StoredPii {
  accountId: string;
  investorIdentifier: string;
  investorName: string;
  investorEmail: string | null;
  keyFingerprint: string | null;
}

export interface OpenedPii {
  investorName: string;
  /** Absent when never given. */
  investorEmail?: string;
  encrypted: boolean;
  masked: boolean;
}

export function parseDecryptionKey(key: string | undefined): Buffer | undefined {
  return key ? parseEncryptionKey(key, 'decryption_key') : undefined;
}

function aad(accountId: string, investorIdentifier: string, field: PiiField): string {
  return `portfolio.investors/${accountId}/${investorIdentifier}/${field}`;
}

export function sealPii(values: PiiValues, key: Buffer | undefined, accountId: string, investorIdentifier: string): Record<PiiField, string | null> {
  const out = {} as Record<PiiField, string | null>;
  for (const f of PII_FIELDS) {
    const value = values[f];
    out[f] = value === undefined ? null : key ? encryptField(value, key, aad(accountId, investorIdentifier, f)) : value;
  }
  return out;
}

/**
 * The existing PII in clear, for an update that keeps some fields. Encrypted data can only be kept with
 * the key it was sealed with; an update that replaces every stored field needs no key.
 */
export function openForUpdate(row: StoredPii, key: Buffer | undefined, given: PiiValues): PiiValues {
  const plain: PiiValues = {};
  if (!row.keyFingerprint) {
    plain.investorName = row.investorName;
    if (row.investorEmail !== null) plain.investorEmail = row.investorEmail;
    return plain;
  }
  // Nothing encrypted is kept when every stored field is given anew.
  const stored: Record<PiiField, string | null> = { investorName: row.investorName, investorEmail: row.investorEmail };
  if (PII_FIELDS.every((f) => stored[f] === null || given[f] !== undefined)) return {};
  if (!key || !fingerprintMatches(key, row.keyFingerprint)) throw new InvalidArgumentError(MSG.encryptedNeedsKey);
  plain.investorName = decryptField(row.investorName, key, aad(row.accountId, row.investorIdentifier, 'investorName'));
  if (row.investorEmail !== null) {
    plain.investorEmail = decryptField(row.investorEmail, key, aad(row.accountId, row.investorIdentifier, 'investorEmail'));
  }
  return plain;
}

/** PII for a read: in clear when stored so or when the key fits, masked otherwise. */
export function openPii(row: StoredPii, key: Buffer | undefined): OpenedPii {
  const encrypted = row.keyFingerprint !== null;
  const canOpen = encrypted && key !== undefined && fingerprintMatches(key, row.keyFingerprint!);
  const read = (f: PiiField, value: string): string => {
    if (!encrypted) return value;
    return canOpen ? decryptField(value, key!, aad(row.accountId, row.investorIdentifier, f)) : MASKED;
  };
  return {
    investorName: read('investorName', row.investorName),
    ...(row.investorEmail !== null ? { investorEmail: read('investorEmail', row.investorEmail) } : {}),
    encrypted,
    masked: encrypted && !canOpen,
  };
}

/**
 * A key that opens none of the encrypted records read is a mistake worth saying, not a silent mask
 * (as identity's getUsers). Records encrypted with other keys stay masked when the key opens some.
 */
export function requireKeyFitsSome(rows: readonly Pick<StoredPii, 'keyFingerprint'>[], key: Buffer | undefined): void {
  if (!key) return;
  const fingerprints = rows.map((r) => r.keyFingerprint).filter((f): f is string => f !== null);
  if (fingerprints.length > 0 && !fingerprints.some((f) => fingerprintMatches(key, f))) {
    throw new InvalidArgumentError(WRONG_KEY_MESSAGE);
  }
}

/** The fingerprint to store with a record sealed with key (null: stored in clear). */
export function fingerprintOf(key: Buffer | undefined): string | null {
  return key ? keyFingerprint(key) : null;
}

/**
 * The investor's PII for a document written to a blockchain (write_investor_to_blockchain = yes): in
 * clear when stored so; when encrypted, only with the matching key (no key or a wrong key is a clear
 * INVALID_ARGUMENT: a chain entry cannot be taken back, so it never carries a mask or a guess).
 */
export function piiToWrite(row: StoredPii, decryptionKey: string | undefined): { investorName: string; investorEmail?: string } {
  if (row.keyFingerprint) {
    if (!decryptionKey) throw new InvalidArgumentError(MSG.investorPiiNeedsKey);
    const key = parseEncryptionKey(decryptionKey, 'decryption_key');
    if (!fingerprintMatches(key, row.keyFingerprint)) throw new InvalidArgumentError(WRONG_KEY_MESSAGE);
    const { investorName, investorEmail } = openPii(row, key);
    return { investorName, ...(investorEmail !== undefined ? { investorEmail } : {}) };
  }
  return { investorName: row.investorName, ...(row.investorEmail !== null ? { investorEmail: row.investorEmail } : {}) };
}
