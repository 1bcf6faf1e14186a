import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@green-impact/shared/config';
import { MIN_SECRET_LENGTH } from '@green-impact/gateway/document-links';

/**
 * The secret `npm start` signs document links with: DOCUMENT_LINK_SECRET when set, else one made on the
 * first start and kept (mode 0600) in the data directory, so links handed out survive a restart.
 */
export function documentLinkSecret(dataDir: string, configured: string | undefined): { secret: string; source: string } {
  if (configured !== undefined) return { secret: configured, source: 'DOCUMENT_LINK_SECRET' };
  const file = join(dataDir, 'document-link-secret');
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': never over an existing one, even if two starts race.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`${file} must hold a secret of at least ${MIN_SECRET_LENGTH} characters; remove it to have a new one made.`);
  }
  return { secret, source: file };
}
