import { createHmac, timingSafeEqual } from 'node:crypto';
import { MIN_SECRET_CHARACTERS } from '@green-impact/shared/secret-strength';

/**
 * Signed, expiring capability links to written HTML documents (docs/decisions.md "Documents and links"):
 *
 *   <base>/jobs/<job_id>.html?v=<link epoch>&exp=<unix seconds>&sig=<HMAC-SHA256, base64url>
 *
 * The MAC covers the job id, the document's link epoch and the expiry, under a secret every gateway
 * replica shares (DOCUMENT_LINK_SECRET). A link opens the one page it names, until it expires or the
 * owner revokes the document's links (the chain service moves the epoch on, so every link signed for the
 * old epoch stops opening). It carries nothing else: no account, no key, no other job.
 */

export interface DocumentLinkSettings {
  /** Signs and verifies (DOCUMENT_LINK_SECRET, at least 32 random characters: secret-strength.ts). */
  secret: Buffer;
  /** Verifies only, during a rotation (DOCUMENT_LINK_PREVIOUS_SECRET); undefined when none. */
  previousSecret: Buffer | undefined;
  /** How long a link opens, from the moment it is handed out (DOCUMENT_LINK_TTL_SECONDS). */
  ttlSeconds: number;
  /** True when no secret was configured and this process made one up: links die with the process. */
  generated: boolean;
}

export const MIN_SECRET_LENGTH = MIN_SECRET_CHARACTERS;
export const DEFAULT_LINK_TTL_SECONDS = 7 * 24 * 3600;
export const MAX_LINK_TTL_SECONDS = 365 * 24 * 3600;
/** Domain separation: this MAC means "a link to this document page" and nothing else. */
const PURPOSE = 'green-impact document link v1';

/** What a link's query names, once its signature is checked. */
export type LinkCheck =
  | { ok: true; linkEpoch: number }
  /** Signed by us but past its expiry: the holder may be told so. */
  | { ok: false; reason: 'expired' }
  /** Anything else (altered, another secret, malformed): nothing is revealed. */
  | { ok: false; reason: 'invalid' };

export class DocumentLinks {
  constructor(
    private readonly settings: DocumentLinkSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The page's address with a fresh signature for the document's current link epoch. */
  sign(pageUrl: string, jobId: string, linkEpoch: number): string {
    const exp = Math.floor(this.now() / 1000) + this.settings.ttlSeconds;
    const sig = mac(this.settings.secret, jobId, linkEpoch, exp);
    return `${pageUrl}?v=${linkEpoch}&exp=${exp}&sig=${sig}`;
  }

  /** Whether the query (v, exp, sig) is a link we signed for this job, and still open. */
  check(jobId: string, query: Record<string, unknown>): LinkCheck {
    const [v, exp, sig] = [query['v'], query['exp'], query['sig']];
    if (typeof v !== 'string' || typeof exp !== 'string' || typeof sig !== 'string') return { ok: false, reason: 'invalid' };
    if (!/^\d{1,10}$/.test(v) || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'invalid' };
    const [epoch, expiry] = [Number(v), Number(exp)];
    if (epoch > 0xffffffff) return { ok: false, reason: 'invalid' };
    const given = Buffer.from(sig, 'base64url');
    // Only the canonical spelling: another text decoding to the same bytes is an altered link too.
    if (given.length !== 32 || given.toString('base64url') !== sig) return { ok: false, reason: 'invalid' };
    const secrets = [this.settings.secret, this.settings.previousSecret].filter((s): s is Buffer => s !== undefined);
    // Every secret is tried, whichever matches, so the time taken says nothing about which one did.
    let genuine = false;
    for (const secret of secrets) genuine = timingSafeEqual(Buffer.from(mac(secret, jobId, epoch, expiry), 'base64url'), given) || genuine;
    if (!genuine) return { ok: false, reason: 'invalid' };
    if (expiry * 1000 <= this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, linkEpoch: epoch };
  }

  /**
   * A link to an impact report page (report-routes.ts): `?acct=<account>&exp=<unix seconds>&sig=…`, the MAC
   * over what the page shows (`subject`: kind, identifier, year), the account it is read as and the expiry,
   * under its own purpose, so it is never a document link nor a link to another report.
   */
  signReport(pageUrl: string, subject: readonly (string | number)[], accountId: string): string {
    const exp = Math.floor(this.now() / 1000) + this.settings.ttlSeconds;
    return `${pageUrl}?acct=${encodeURIComponent(accountId)}&exp=${exp}&sig=${reportMac(this.settings.secret, subject, accountId, exp)}`;
  }

  /** Whether the query (acct, exp, sig) is a report link we signed for this subject, and still open; the account it reads as. */
  checkReport(subject: readonly (string | number)[], query: Record<string, unknown>): { ok: true; accountId: string } | { ok: false; reason: 'expired' | 'invalid' } {
    const [acct, exp, sig] = [query['acct'], query['exp'], query['sig']];
    if (typeof acct !== 'string' || typeof exp !== 'string' || typeof sig !== 'string') return { ok: false, reason: 'invalid' };
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(acct) || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'invalid' };
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== 32 || given.toString('base64url') !== sig) return { ok: false, reason: 'invalid' };
    const secrets = [this.settings.secret, this.settings.previousSecret].filter((s): s is Buffer => s !== undefined);
    let genuine = false;
    for (const secret of secrets) genuine = timingSafeEqual(Buffer.from(reportMac(secret, subject, acct, Number(exp)), 'base64url'), given) || genuine;
    if (!genuine) return { ok: false, reason: 'invalid' };
    if (Number(exp) * 1000 <= this.now()) return { ok: false, reason: 'expired' };
    return { ok: true, accountId: acct };
  }

  /** Whether the query carries any of a link's parameters (then it is judged as a link, never as a key). */
  static isLinkQuery(query: Record<string, unknown>): boolean {
    return query['sig'] !== undefined || query['exp'] !== undefined || query['v'] !== undefined || query['acct'] !== undefined;
  }
}

function mac(secret: Buffer, jobId: string, linkEpoch: number, exp: number): string {
  return createHmac('sha256', secret).update(`${PURPOSE}\n${jobId.toLowerCase()}\n${linkEpoch}\n${exp}`).digest('base64url');
}

const REPORT_PURPOSE = 'green-impact report link v1';

/** JSON keeps the parts apart whatever they hold (identifiers are case-sensitive and never lower-cased here). */
function reportMac(secret: Buffer, subject: readonly (string | number)[], accountId: string, exp: number): string {
  return createHmac('sha256', secret).update(JSON.stringify([REPORT_PURPOSE, ...subject, accountId, exp])).digest('base64url');
}
