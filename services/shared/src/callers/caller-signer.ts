import { sign, type KeyObject } from 'node:crypto';
import type { Caller } from '../caller.js';

/** How long a caller token is valid, and how long a signer hands out the same one before signing afresh. */
export const TOKEN_TTL_SECONDS = 60;
export const TOKEN_REUSE_SECONDS = 20;
const MAX_CACHED = 10_000;

/**
 * The claims of a caller token: who asks (`sub`, `role`; neither for an anonymous call), through whom, of whom.
 * `act` (RFC 8693's actor claim) names the person who acted for the account, when an OpenID Connect token
 * authenticated the request: its subject and issuer. API-key calls have none.
 */
export interface CallerClaims {
  iss: string;
  aud: string;
  sub?: string;
  role?: Caller['role'];
  act?: ActingPerson;
  iat: number;
  exp: number;
}

/** The person behind a call: an identity provider's subject, and that provider's issuer URL. */
export interface ActingPerson {
  sub: string;
  iss: string;
}

/** Bounds of the acting person's fields (OpenID Connect: `sub` at most 255 ASCII characters). */
export const MAX_ACTOR_SUBJECT_LENGTH = 255;
export const MAX_ACTOR_ISSUER_LENGTH = 1024;

/** An acting person's field: 1 to `max` characters, none a control character (no line breaks into logs). */
export function actorFieldOk(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max && !/[\u0000-\u001f\u007f]/.test(value);
}

/** The caller's acting person, when it has both halves within bounds; a half alone names nobody. */
export function actingPersonOf(caller: Caller | undefined): ActingPerson | undefined {
  if (!caller?.subject || !caller.issuer) return undefined;
  if (!actorFieldOk(caller.subject, MAX_ACTOR_SUBJECT_LENGTH) || !actorFieldOk(caller.issuer, MAX_ACTOR_ISSUER_LENGTH)) {
    throw new RangeError('The acting person\'s subject or issuer cannot be carried in a caller token (too long, or a control character).');
  }
  return { sub: caller.subject, iss: caller.issuer };
}


/**
 * Signs caller tokens as one issuer (the gateway, or a service calling another for its caller): a compact
 * EdDSA JWT whose audience is the called service. Signing is synchronous (node:crypto) because a
 * server-streaming call is opened synchronously; verification, the part that must be strict, is jose's
 * (caller-verifier.ts). A token is reused for TOKEN_REUSE_SECONDS per (audience, account, role, acting person), so a
 * busy gateway signs a few times a minute per active caller rather than on every call, and every token
 * it sends has at least TTL − reuse seconds left, more than a call's deadline.
 */
export class CallerSigner {
  private readonly cache = new Map<string, { token: string; renewAt: number }>();
  /** kid names the issuer, so the verifier picks the issuer's public key before it trusts any claim. */
  private readonly header: string;

  constructor(
    readonly issuer: string,
    private readonly privateKey: KeyObject,
    private readonly now: () => number = Date.now,
  ) {
    this.header = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid: issuer })).toString('base64url');
  }

  /** A token for `caller` (undefined: an anonymous call, still vouched for by the issuer) to `audience`. */
  token(caller: Caller | undefined, audience: string): string {
    const act = actingPersonOf(caller);
    const key = `${audience}\n${caller?.accountId ?? ''}\n${caller?.role ?? ''}\n${act ? `${act.iss}\n${act.sub}` : ''}`;
    const nowMs = this.now();
    const cached = this.cache.get(key);
    if (cached && cached.renewAt > nowMs) return cached.token;
    const iat = Math.floor(nowMs / 1000);
    const claims: CallerClaims = {
      iss: this.issuer,
      aud: audience,
      ...(caller ? { sub: caller.accountId, role: caller.role } : {}),
      ...(act ? { act } : {}),
      iat,
      exp: iat + TOKEN_TTL_SECONDS,
    };
    const input = `${this.header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const token = `${input}.${sign(null, Buffer.from(input), this.privateKey).toString('base64url')}`;
    this.cache.delete(key);
    // Bounded: beyond MAX_CACHED the entry written longest ago goes (it is signed again when next needed).
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { token, renewAt: nowMs + TOKEN_REUSE_SECONDS * 1000 });
    return token;
  }
}
