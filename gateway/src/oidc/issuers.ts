import { z } from 'zod';
import { ConfigError, envReader, type Env } from '@green-impact/shared/config';
// An issuer's URL travels as the acting person's issuer (callers/caller-signer.ts): no longer than that allows.
import { MAX_ACTOR_ISSUER_LENGTH } from '@green-impact/shared/callers/caller-signer';

/**
 * The signature algorithms a bearer token may use: asymmetric ones only. `none` is never accepted, nor is
 * an HMAC (HS*) one: an issuer publishes public keys, and an HMAC "signed" with a public key proves nothing.
 */
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;
export type AsymmetricAlgorithm = (typeof ASYMMETRIC_ALGORITHMS)[number];

/** One OpenID Connect issuer whose access tokens the gateway accepts (OIDC_ISSUERS, docs/sign-in.md). */
export interface OidcIssuer {
  /** The issuer identifier, exactly as the tokens' `iss` and the discovery document say it. */
  issuer: string;
  /** The `aud` a token must carry to be meant for this gateway. */
  audience: string;
  /** Allow-list of signature algorithms (asymmetric only). */
  algorithms: AsymmetricAlgorithm[];
  /** Clock skew tolerated on `exp` and `nbf`, in seconds. */
  clockSkewSeconds: number;
  claims: {
    /** Claim holding the id of the account (identity's account id) the token acts for. */
    account: string;
    /** Claim holding the role(s): a string or a list of strings. */
    role: string;
    /** Claim holding the scopes: a space-separated string (`scope`) or a list (`scp`). */
    scope: string;
  };
  /**
   * The accounts this issuer may sign in to (identity's account ids), or `*`: any. With one issuer, `*`
   * unless said; with several, each must say (an issuer speaks only for the accounts it is bound to).
   */
  accounts: '*' | string[];
  /** Whether this issuer may give the operator role at all (still only to an operator account). With one issuer true unless said; with several, false unless said. */
  grantsOperator: boolean;
  /** The role claim value that asks for the operator role (granted only to an operator account). */
  operatorRole: string;
  /** The scope without which a token is read-only: it may read but change nothing. */
  writeScope: string;
  /** The public OAuth client the explorer page signs in with (Authorization Code + PKCE); absent: no sign-in button. */
  explorerClientId?: string | undefined;
  /** The scopes the explorer asks for; default `openid <writeScope>`. */
  explorerScope?: string | undefined;
  /**
   * Extra parameters of the explorer's authorization request, where the issuer needs one to issue a token
   * for this API: `{"resource": "<audience>"}` (RFC 8707), Auth0's `{"audience": "<audience>"}`.
   */
  explorerAuthorizationParams?: Record<string, string> | undefined;
}

/** Account ids as identity issues them (randomUUID: lower-case). */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Keys and discovery travel over TLS: plain http only to this machine (a development or test issuer on
 * localhost, 127.0.0.0/8, ::1), where nobody on the way can swap the keys.
 */
export function httpsOrLoopback(url: string): boolean {
  const u = new URL(url);
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(u.hostname));
}

const issuerSchema = z
  .object({
    issuer: z
      .url({ protocol: /^https?$/ })
      .max(MAX_ACTOR_ISSUER_LENGTH)
      .refine(httpsOrLoopback, { error: 'an issuer must be an https URL (http only on a loopback address: localhost, 127.0.0.1, [::1])' }),
    audience: z.string().min(1),
    algorithms: z
      .array(z.enum(ASYMMETRIC_ALGORITHMS, { error: (i) => `algorithm ${JSON.stringify(i.input)} is not allowed (only ${ASYMMETRIC_ALGORITHMS.join(', ')}; never none or HMAC)` }))
      .min(1)
      .default(['RS256', 'PS256', 'ES256', 'EdDSA']),
    clockSkewSeconds: z.int().min(0).max(300).default(30),
    claims: z
      .object({
        account: z.string().min(1).default('green_impact_account'),
        role: z.string().min(1).default('green_impact_role'),
        scope: z.string().min(1).default('scope'),
      })
      .strict()
      .default({ account: 'green_impact_account', role: 'green_impact_role', scope: 'scope' }),
    accounts: z
      .union([z.literal('*'), z.array(z.string().regex(ACCOUNT_ID, { error: 'accounts are account ids (from listAccounts)' })).min(1)])
      .optional(),
    grantsOperator: z.boolean().optional(),
    operatorRole: z.string().min(1).default('operator'),
    writeScope: z.string().min(1).default('impact:write'),
    explorerClientId: z.string().min(1).optional(),
    explorerScope: z.string().min(1).optional(),
    explorerAuthorizationParams: z.record(z.string().regex(/^[a-z_]+$/), z.string()).optional(),
  })
  .strict();

/**
 * OIDC_ISSUERS: a JSON list of issuers (docs/sign-in.md), checked at start so a typo stops the gateway
 * rather than refusing every token. Unset or empty: bearer tokens are not enabled.
 */
export function loadOidcIssuers(env: Env): OidcIssuer[] {
  const raw = envReader(env).optionalString('OIDC_ISSUERS');
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('OIDC_ISSUERS must be a JSON list of issuers (docs/sign-in.md).');
  }
  const result = z.array(issuerSchema).safeParse(parsed);
  if (!result.success) {
    const first = result.error.issues[0]!;
    throw new ConfigError(`OIDC_ISSUERS[${first.path.join('.')}]: ${first.message}.`);
  }
  const sole = result.data.length === 1;
  const seen = new Set<string>();
  for (const i of result.data) {
    if (seen.has(i.issuer)) throw new ConfigError(`OIDC_ISSUERS names ${i.issuer} twice.`);
    seen.add(i.issuer);
  }
  return result.data.map(({ accounts, grantsOperator, ...i }, n) => {
    // With several issuers none speaks for every account by default: each says which accounts are its own.
    if (accounts === undefined && !sole) {
      throw new ConfigError(`OIDC_ISSUERS[${n}.accounts]: with more than one issuer each must name the accounts it may sign in to (a list of account ids, or "*" for any).`);
    }
    return { ...i, accounts: accounts ?? '*', grantsOperator: grantsOperator ?? sole };
  });
}
