/**
 * The identity operations are declared in catalogue/identity/ (issue 28). These parameter specs remain
 * only because portfolio-params.ts (and through it the NFT and portfolio rows) still builds on them; they
 * go when those domains move into the catalogue. The identity service owns the rules (lengths, the e-mail
 * address's format); these copies bind only the rows not yet moved.
 */
export const userParams = {
  userIdentifier: { type: 'identifier', required: true },
  optionalUserIdentifier: { type: 'identifier' },
  key: { type: 'string', maxLength: 255 },
  /** The spec misspells decryption_key as depryption_key in one table; legacy clients may send either. */
  decryptionKey: { type: 'string', maxLength: 255, aliases: ['depryption_key'] },
  name: { type: 'string', maxLength: 255 },
  email: { type: 'email' },
  role: { type: 'enum', values: ['user', 'admin'] },
  group: { type: 'string', required: true, maxLength: 255 },
  investorIdentifier: { type: 'identifier', required: true },
} as const;
