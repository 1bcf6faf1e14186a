import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, exportJWK, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** The audience (resource indicator) the gateway is configured with in the tests. */
export const TEST_AUDIENCE = 'https://api.green-impact.test';

/** What a minted access token says of its person and account (the provider's claims, docs/sign-in.md). */
export interface TokenClaims {
  /** The acting person (`sub`). */
  subject: string;
  /** The account id (claim green_impact_account); absent: the claim is left out. */
  account?: string | undefined;
  /** green_impact_role, e.g. 'operator'. */
  role?: string | undefined;
  /** Space-separated scopes asked for; default `impact:read impact:write`. */
  scope?: string | undefined;
  /** Lifetime in seconds; default 300. */
  ttlSeconds?: number | undefined;
  /** `nbf` (epoch seconds) to put in the token. */
  notBefore?: number | undefined;
  /** The resource (audience) asked for; default TEST_AUDIENCE. */
  resource?: string | undefined;
}

export interface TestIssuer {
  /** The issuer identifier (`http://127.0.0.1:<port>`), as tokens and discovery say it. */
  issuer: string;
  /** An access token (JWT, RS256) the provider issues through its token endpoint (client_credentials). */
  mint(claims: TokenClaims): Promise<string>;
  /** The provider's published keys (its JWKS), as anyone can read them. */
  publicJwks(): Promise<{ keys: JWK[] }>;
  /** How many times its JWKS (/jwks) was fetched, by anyone (publicJwks too). */
  readonly jwksRequests: number;
  /** Replaces the provider's signing key with a fresh one (new kid): a key rotation. */
  rotateKeys(): Promise<void>;
  /** The explorer's public client (Authorization Code + PKCE, no secret). */
  readonly explorerClientId: string;
  /** Registers `uri` (the gateway's /graphql) as the explorer client's redirect URI. */
  allowExplorerRedirect(uri: string): Promise<void>;
  /** The account and role the provider's claim mapper writes for a person who signs in as `login`. */
  setUser(login: string, claims: Pick<TokenClaims, 'account' | 'role'>): void;
  close(): Promise<void>;
}

const CLIENT_ID = 'gateway-tests';
const CLIENT_SECRET = 'a-client-secret-of-the-tests-only-000000';
const EXPLORER_CLIENT_ID = 'impact-explorer';

/**
 * The certified `oidc-provider` (panva) on a loopback port-0 HTTP server: a real OpenID provider with
 * discovery, a JWKS and a token endpoint. Tokens are JWT access tokens for a resource (RFC 8707), minted
 * through the client_credentials grant; the provider's JWT customizer writes the person, account, role and
 * nbf asked for, and for a person who signs in (devInteractions: any login) the account setUser gave, as an
 * IdP's claim mappers do. The explorer's public client signs in with the Authorization Code flow and PKCE.
 */
export async function startTestIssuer(): Promise<TestIssuer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let pending: TokenClaims | undefined;
  const users = new Map<string, Pick<TokenClaims, 'account' | 'role'>>();
  let explorerRedirectUris = ['http://127.0.0.1/graphql'];
  let signingKey = await newKey();
  let provider = build();
  let jwksRequests = 0;
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/jwks')) jwksRequests++;
    provider.callback()(req, res);
  });

  async function newKey(): Promise<JWK> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    return { ...(await exportJWK(privateKey)), kid: `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, alg: 'RS256', use: 'sig' };
  }

  function build(): Provider {
    const p = new Provider(issuer, {
      clients: [
        { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
        {
          client_id: EXPLORER_CLIENT_ID,
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code'],
          response_types: ['code'],
          redirect_uris: explorerRedirectUris,
        },
      ],
      jwks: { keys: [signingKey] },
      scopes: ['openid', 'impact:read', 'impact:write'],
      features: {
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => TEST_AUDIENCE,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'impact:read impact:write',
            audience: pending?.resource ?? TEST_AUDIENCE,
            accessTokenFormat: 'jwt',
            accessTokenTTL: pending?.ttlSeconds ?? 300,
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      formats: {
        customizers: {
          jwt: async (_ctx, token, jwt) => {
            // A minted token's claims, or those of the person who signed in (the token's account is its login).
            const login = 'accountId' in token ? token.accountId : undefined;
            const claims = pending ?? (login ? users.get(login) : undefined);
            if (!claims) return;
            if (pending) jwt.payload['sub'] = pending.subject;
            if (claims.account !== undefined) jwt.payload['green_impact_account'] = claims.account;
            if (claims.role !== undefined) jwt.payload['green_impact_role'] = claims.role;
            if (pending?.notBefore !== undefined) jwt.payload['nbf'] = pending.notBefore;
          },
        },
      },
    });
    p.proxy = false;
    return p;
  }

  let queue = Promise.resolve();
  return {
    issuer,
    explorerClientId: EXPLORER_CLIENT_ID,
    get jwksRequests() {
      return jwksRequests;
    },
    mint(claims) {
      // One token at a time: the customizer reads the claims of the token being minted.
      const minted = queue.then(async () => {
        pending = claims;
        try {
          const body = new URLSearchParams({
            grant_type: 'client_credentials',
            scope: claims.scope ?? 'impact:read impact:write',
            resource: claims.resource ?? TEST_AUDIENCE,
          });
          const res = await fetch(`${issuer}/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}` },
            body,
          });
          const answer = (await res.json()) as { access_token?: string; error?: string; error_description?: string };
          if (!answer.access_token) throw new Error(`token endpoint: ${answer.error}: ${answer.error_description}`);
          return answer.access_token;
        } finally {
          pending = undefined;
        }
      });
      queue = minted.then(() => undefined, () => undefined);
      return minted;
    },
    async publicJwks() {
      return (await (await fetch(`${issuer}/jwks`)).json()) as { keys: JWK[] };
    },
    async allowExplorerRedirect(uri) {
      explorerRedirectUris = [uri];
      provider = build();
    },
    setUser(login, claims) {
      users.set(login, claims);
    },
    async rotateKeys() {
      signingKey = await newKey();
      provider = build();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
