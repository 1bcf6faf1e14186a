import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { UnauthenticatedError, UnavailableError } from '@green-impact/shared/errors';
import type { OidcIssuer } from './issuers.js';
import { actorFieldOk, MAX_ACTOR_SUBJECT_LENGTH } from '@green-impact/shared/callers/caller-signer';

/** Prefix of the Authorization header value that carries a bearer token (RFC 6750; the scheme is case-insensitive). */
const BEARER = /^bearer\s+(.+)$/i;

/** Longer values are not tokens we accept; refused before any parsing. */
const MAX_TOKEN_LENGTH = 16_384;

/** What a verified token says, before it is mapped to an account (auth.ts). */
export interface VerifiedToken {
  issuer: OidcIssuer;
  subject: string;
  /** The account id the token's account claim names. */
  accountId: string;
  /** Whether the role claim asks for the operator role, and the issuer may give it (grantsOperator). */
  wantsOperator: boolean;
  scopes: string[];
  /** When the token stops being valid (epoch milliseconds, `exp`). */
  expiresAt: number;
}

export const BEARER_NOT_ENABLED = 'Bearer tokens are not enabled on this gateway (no OIDC_ISSUERS); send an API key in X-Api-Key.';

/** The token of an `Authorization: Bearer …` value; undefined for any other scheme (which the gateway ignores). */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = BEARER.exec(authorization.trim());
  return match ? match[1]!.trim() : undefined;
}

export interface BearerVerifierOptions {
  /** Least time between two JWKS fetches when a token names an unknown key (rotation), default 30 s. */
  jwksCooldownMs?: number;
  /** Deadline of a discovery or JWKS fetch, default 5 s. */
  fetchTimeoutMs?: number;
}

/**
 * Verifies OpenID Connect access tokens (JWT) of the configured issuers with `jose` (docs/decisions.md):
 * the issuer is chosen by the token's `iss` (only exact configured values), its discovery document read
 * once (and again after a failure), its JWKS fetched and cached by jose, fetched again when a token names
 * a key it does not hold (key rotation), at most once per cooldown. The signature algorithm must be on
 * the issuer's allow-list (asymmetric only); `aud`, `exp` and `nbf` are checked with the issuer's clock skew.
 */
export class BearerVerifier {
  private readonly keySets = new Map<string, Promise<ReturnType<typeof createRemoteJWKSet>>>();
  private readonly byIssuer: Map<string, OidcIssuer>;

  constructor(
    readonly issuers: readonly OidcIssuer[],
    private readonly options: BearerVerifierOptions = {},
  ) {
    this.byIssuer = new Map(issuers.map((i) => [i.issuer, i]));
  }

  get enabled(): boolean {
    return this.issuers.length > 0;
  }

  async verify(token: string): Promise<VerifiedToken> {
    if (!this.enabled) throw new UnauthenticatedError(BEARER_NOT_ENABLED);
    if (token.length > MAX_TOKEN_LENGTH) throw new UnauthenticatedError('The bearer token is not valid.');
    let claimedIssuer: unknown;
    try {
      claimedIssuer = decodeJwt(token).iss;
    } catch {
      throw new UnauthenticatedError('The bearer token is not a JWT.');
    }
    const issuer = typeof claimedIssuer === 'string' ? this.byIssuer.get(claimedIssuer) : undefined;
    if (!issuer) throw new UnauthenticatedError('The bearer token was issued by an issuer this gateway does not accept.');
    const keys = await this.keysOf(issuer);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: issuer.issuer,
        audience: issuer.audience,
        algorithms: issuer.algorithms,
        clockTolerance: issuer.clockSkewSeconds,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      throw refusal(err);
    }
    return mapClaims(issuer, payload);
  }

  /** The issuer's key set, from its discovery document; a failed discovery is tried again by the next token. */
  private keysOf(issuer: OidcIssuer): Promise<ReturnType<typeof createRemoteJWKSet>> {
    let keys = this.keySets.get(issuer.issuer);
    if (!keys) {
      keys = this.discover(issuer);
      this.keySets.set(issuer.issuer, keys);
      keys.catch(() => this.keySets.delete(issuer.issuer));
    }
    return keys;
  }

  private async discover(issuer: OidcIssuer): Promise<ReturnType<typeof createRemoteJWKSet>> {
    const timeoutMs = this.options.fetchTimeoutMs ?? 5_000;
    const url = `${issuer.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    let document: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      document = (await res.json()) as typeof document;
    } catch {
      throw new UnavailableError('The token issuer cannot be reached to check the bearer token; please retry.');
    }
    if (document.issuer !== issuer.issuer || typeof document.jwks_uri !== 'string') {
      throw new UnavailableError('The token issuer\'s discovery document does not match its configuration.');
    }
    return createRemoteJWKSet(new URL(document.jwks_uri), {
      cooldownDuration: this.options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: 10 * 60_000,
      timeoutDuration: timeoutMs,
    });
  }
}

/** jose's refusals as the gateway's 401s (the issuer being unreachable is 503, retried by clients). */
function refusal(err: unknown): Error {
  if (err instanceof errors.JWTExpired) return new UnauthenticatedError('The bearer token has expired.');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new UnauthenticatedError('The bearer token is not valid yet.');
    if (err.claim === 'aud') return new UnauthenticatedError('The bearer token is not meant for this service (audience).');
    if (err.claim === 'iss') return new UnauthenticatedError('The bearer token was issued by an issuer this gateway does not accept.');
    return new UnauthenticatedError(`The bearer token's ${err.claim} claim is not valid.`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new UnauthenticatedError('The bearer token\'s signature algorithm is not accepted.');
  }
  if (err instanceof errors.JWKSTimeout || (err instanceof Error && err.name === 'TypeError')) {
    return new UnavailableError('The token issuer cannot be reached to check the bearer token; please retry.');
  }
  return new UnauthenticatedError('The bearer token is not valid.');
}

function mapClaims(issuer: OidcIssuer, payload: JWTPayload): VerifiedToken {
  const account = payload[issuer.claims.account];
  if (typeof account !== 'string' || account === '') {
    throw new UnauthenticatedError(`The bearer token names no account (claim ${issuer.claims.account}).`);
  }
  // An issuer speaks only for the accounts it is bound to (OIDC_ISSUERS accounts): a second issuer cannot sign in to the first's.
  if (issuer.accounts !== '*' && !issuer.accounts.includes(account)) {
    throw new UnauthenticatedError('The bearer token\'s issuer may not sign in to this account.');
  }
  // The subject travels to the services as the acting person and is stored with what it creates.
  if (!actorFieldOk(payload.sub, MAX_ACTOR_SUBJECT_LENGTH)) {
    throw new UnauthenticatedError(`The bearer token's sub claim must name the person in 1 to ${MAX_ACTOR_SUBJECT_LENGTH} characters, none a control character.`);
  }
  return {
    issuer,
    subject: payload.sub,
    accountId: account,
    wantsOperator: issuer.grantsOperator && listClaim(payload[issuer.claims.role]).includes(issuer.operatorRole),
    scopes: listClaim(payload[issuer.claims.scope]),
    expiresAt: payload.exp! * 1000,
  };
}

/** A claim that is a space-separated string or a list of strings, as a list. */
function listClaim(value: unknown): string[] {
  if (typeof value === 'string') return value.split(' ').filter((s) => s !== '');
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}
