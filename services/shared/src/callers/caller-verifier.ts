import { verify, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, type FlattenedJWSInput } from 'jose';
import type { Caller } from '../caller.js';
import { UnauthenticatedError } from '../errors.js';
import { actorFieldOk, MAX_ACTOR_ISSUER_LENGTH, MAX_ACTOR_SUBJECT_LENGTH, TOKEN_TTL_SECONDS, type ActingPerson, type CallerClaims } from './caller-signer.js';

/** The issuer every service trusts for any of its methods. */
export const GATEWAY_ISSUER = 'gateway';

/**
 * What an issuer other than the gateway may ask of a service for its callers, by service and method. The
 * portfolio service reads frameworks and FX rates from taxonomy, also in background jobs long after the
 * gateway's token expired, so it signs as itself; it also records which frameworks its assets refer to
 * (RecordFrameworkHolder, issue 46). A stolen portfolio key can then read taxonomy as any account and
 * record references that hold a framework's currency, but change no reference data and reach no other service.
 */
export const RELAY_GRANTS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  portfolio: {
    'greenimpact.taxonomy.v1.TaxonomyService': ['GetFrameworksByIdentifiers', 'GetFrameworkYearSpecifics', 'GetFrameworkDetails', 'ConvertAmounts', 'RecordFrameworkHolder'],
  },
};

/** A verified call: `caller` undefined for an anonymous call the issuer vouched for (API-key checks, NFT claims). */
export interface VerifiedCall {
  caller: Caller | undefined;
  issuer: string;
}

const CLOCK_TOLERANCE_SECONDS = 5;
const MAX_CACHED = 10_000;

/**
 * Checks caller tokens (caller-signer.ts) for one process: signed with EdDSA by a trusted issuer's key,
 * addressed to the called service, not expired, and within the issuer's grants. Every failure is
 * UNAUTHENTICATED. A token verified once is remembered until it expires, so the gateway's reused token
 * costs one signature check per reuse period, not one per call.
 */
export class CallerVerifier {
  private readonly verified = new Map<string, CallerClaims>();

  constructor(
    /** Issuer name → its public keys (two while a key is rotated). */
    private readonly trusted: ReadonlyMap<string, readonly KeyObject[]>,
    private readonly now: () => number = Date.now,
  ) {}

  get issuers(): string[] {
    return [...this.trusted.keys()];
  }

  async verify(token: string | undefined, service: string, method: string): Promise<VerifiedCall> {
    if (token === undefined || token === '') throw new UnauthenticatedError('This service accepts only calls signed by the gateway: the call has no caller token.');
    const claims = this.verified.get(token) ?? (await this.check(token, service));
    const nowSeconds = this.now() / 1000;
    if (claims.exp + CLOCK_TOLERANCE_SECONDS <= nowSeconds) {
      this.verified.delete(token);
      throw new UnauthenticatedError('The caller token has expired.');
    }
    if (claims.aud !== service) throw new UnauthenticatedError('The caller token is for another service.');
    if (claims.iss !== GATEWAY_ISSUER && !RELAY_GRANTS[claims.iss]?.[service]?.includes(method)) {
      throw new UnauthenticatedError(`Callers signed by ${claims.iss} may not call ${method}.`);
    }
    if (claims.sub === undefined) return { caller: undefined, issuer: claims.iss };
    const act = claims.act ? { subject: claims.act.sub, issuer: claims.act.iss } : {};
    return { caller: { accountId: claims.sub, role: claims.role!, ...act }, issuer: claims.iss };
  }

  private async check(token: string, service: string): Promise<CallerClaims> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new UnauthenticatedError('The caller token is malformed.');
    }
    const keys = kid === undefined ? undefined : this.trusted.get(kid);
    if (!keys?.length) throw new UnauthenticatedError('The caller token is signed by an issuer this service does not trust.');
    let payload: Record<string, unknown>;
    try {
      // The issuer's newest key first; the one it replaces only while both are trusted.
      ({ payload } = await jwtVerify(token, (_header, jws) => pickKey(keys, jws), {
        algorithms: ['EdDSA'],
        issuer: kid,
        audience: service,
        requiredClaims: ['iat', 'exp'],
        // A token that claims a longer life than any signer gives is not one of ours.
        maxTokenAge: TOKEN_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.now()),
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new UnauthenticatedError('The caller token has expired.');
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'aud') throw new UnauthenticatedError('The caller token is for another service.');
      throw new UnauthenticatedError('The caller token is not valid.');
    }
    const claims = toClaims(payload);
    if (this.verified.size >= MAX_CACHED) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return claims;
  }
}

/** The issuer's key that made this signature (Ed25519 verification is cheap; there are at most two). */
async function pickKey(keys: readonly KeyObject[], jws: FlattenedJWSInput): Promise<KeyObject> {
  if (keys.length === 1) return keys[0]!;
  const input = Buffer.from(`${jws.protected ?? ''}.${typeof jws.payload === 'string' ? jws.payload : ''}`);
  const signature = Buffer.from(jws.signature, 'base64url');
  return keys.find((k) => verify(null, input, k, signature)) ?? keys[0]!;
}

function toClaims(p: Record<string, unknown>): CallerClaims {
  const { iss, aud, sub, role, act, iat, exp } = p;
  const anonymous = sub === undefined && role === undefined && act === undefined;
  const account = typeof sub === 'string' && sub !== '' && (role === 'operator' || role === 'user');
  const actor = act === undefined ? undefined : actingPerson(act);
  if (typeof iss !== 'string' || typeof aud !== 'string' || typeof iat !== 'number' || typeof exp !== 'number' || !(anonymous || account) || actor === null) {
    throw new UnauthenticatedError('The caller token is not valid.');
  }
  return { iss, aud, iat, exp, ...(account ? { sub: sub as string, role: role as Caller['role'] } : {}), ...(actor ? { act: actor } : {}) };
}

/** The `act` claim as the signer writes it (both halves, non-empty, within bounds), else null: not ours. */
function actingPerson(act: unknown): ActingPerson | null {
  if (typeof act !== 'object' || act === null) return null;
  const { sub, iss } = act as Record<string, unknown>;
  return actorFieldOk(sub, MAX_ACTOR_SUBJECT_LENGTH) && actorFieldOk(iss, MAX_ACTOR_ISSUER_LENGTH) ? { sub, iss } : null;
}
