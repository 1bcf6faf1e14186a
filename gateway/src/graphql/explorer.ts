import { createRequire } from 'node:module';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { NotFoundError } from '@green-impact/shared/errors';
import { routeLabel } from '../request-context.js';
import { escapeHtml } from '../pages/html.js';
import type { OidcIssuer } from '../oidc/issuers.js';

/**
 * The GraphQL explorer: GraphiQL served entirely from this gateway (its UMD build and React 18's, from
 * node_modules; nothing from a CDN), for browsers that open /graphql. The API key is typed on the page
 * and sent as X-Api-Key with each request; the page neither stores it nor sends it anywhere else. With an
 * issuer that names an `explorerClientId` (OIDC_ISSUERS, docs/sign-in.md) the page also signs in: the
 * Authorization Code flow with PKCE (S256) against that issuer, the access token kept in the page's memory
 * only and sent as `Authorization: Bearer`. Pages carry a strict Content-Security-Policy: scripts only from
 * this origin, requests only to it (and to the sign-in issuer's origin, for its discovery and token endpoint).
 */

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/** The files the page loads, by the name it asks for. */
const ASSETS: Record<string, { file?: string; body?: string; type: string }> = {
  'react.production.min.js': { file: path.join(packageDir('react'), 'umd/react.production.min.js'), type: 'text/javascript' },
  'react-dom.production.min.js': { file: path.join(packageDir('react-dom'), 'umd/react-dom.production.min.js'), type: 'text/javascript' },
  'graphiql.min.js': { file: path.join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.min.css': { file: path.join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
  'explorer.js': { body: explorerScript(), type: 'text/javascript' },
  'explorer.css': { body: explorerStyle(), type: 'text/css' },
};

const csp = (connectTo: string | undefined) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    // GraphiQL and CodeMirror set style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    connectTo ? `connect-src 'self' ${connectTo}` : "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/** The first issuer with an explorer client, which the page signs in with. */
export function explorerIssuer(issuers: readonly OidcIssuer[]): OidcIssuer | undefined {
  return issuers.find((i) => i.explorerClientId !== undefined);
}

/**
 * Mount before the GraphQL handler; `enabled` false serves nothing (production default). `signIn`: the
 * issuer the page signs in with (explorerIssuer).
 */
export function explorerRoutes(enabled: boolean, signIn?: OidcIssuer): Router {
  const router = Router();
  const CSP = csp(signIn ? new URL(signIn.issuer).origin : undefined);
  const PAGE = page(signIn);
  function securityHeaders(res: Response): void {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
  }
  router.get('/graphql', routeLabel('/graphql'), (req, res, next) => {
    if (!enabled) return next();
    // Browsers ask for HTML first; GraphQL-over-GET clients ask for JSON and go on to Apollo.
    if (req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) !== 'text/html') return next();
    if (req.path.endsWith('/')) return res.redirect(308, req.originalUrl.replace(/\/+(\?|$)/, '$1'));
    securityHeaders(res);
    res.type('html').setHeader('Cache-Control', 'no-store').send(PAGE);
  });
  router.get('/graphql/assets/:name', routeLabel('/graphql/assets'), (req: Request<{ name: string }>, res, next) => {
    const asset = enabled ? ASSETS[req.params.name] : undefined;
    if (!asset) return next(new NotFoundError('No such explorer asset.'));
    securityHeaders(res);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type(asset.type);
    if (asset.body !== undefined) return res.send(asset.body);
    return res.sendFile(asset.file!, { dotfiles: 'deny' });
  });
  return router;
}

/** What the page's script needs to sign in, as data attributes (the CSP allows no inline script). */
function signInAttributes(signIn: OidcIssuer | undefined): string {
  if (!signIn) return '';
  const attrs = {
    'data-issuer': signIn.issuer,
    'data-client-id': signIn.explorerClientId,
    'data-scope': signIn.explorerScope ?? `openid ${signIn.writeScope}`,
    'data-params': JSON.stringify(signIn.explorerAuthorizationParams ?? {}),
  };
  return Object.entries(attrs).map(([k, v]) => ` ${k}="${escapeHtml(v)}"`).join('');
}

// Asset URLs are relative to the page (…/graphql), so the explorer works behind a path prefix.
const page = (signIn: OidcIssuer | undefined) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Green-asset impact · GraphQL explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="graphql/assets/graphiql.min.css">
<link rel="stylesheet" href="graphql/assets/explorer.css">
</head>
<body>
<header class="gi-bar"${signInAttributes(signIn)}>
  <strong>Green-asset impact · GraphQL</strong>
  <label for="api-key">API key</label>
  <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" placeholder="X-Api-Key value">
  <span class="gi-hint">Sent as X-Api-Key with each request from this page; never stored.</span>${
    signIn
      ? `
  <button id="sign-in" type="button">Sign in</button>
  <span id="signed-in" class="gi-hint" role="status"></span>`
      : ''
  }
</header>
<main id="graphiql">Loading the explorer…</main>
<noscript>The explorer needs JavaScript. POST queries to this address with an X-Api-Key header instead.</noscript>
<script src="graphql/assets/react.production.min.js"></script>
<script src="graphql/assets/react-dom.production.min.js"></script>
<script src="graphql/assets/graphiql.min.js"></script>
<script src="graphql/assets/explorer.js"></script>
</body>
</html>
`;

function explorerScript(): string {
  return `'use strict';
(function () {
  var keyInput = document.getElementById('api-key');
  var endpoint = window.location.pathname;
  var params = new URLSearchParams(window.location.search);
  // The access token of a sign-in: in this page's memory only, gone with the page.
  var accessToken = null;
  signInFlow();
  function fetcher(graphQLParams) {
    var headers = { 'content-type': 'application/json', accept: 'application/json' };
    var key = keyInput.value.trim();
    if (accessToken) headers.authorization = 'Bearer ' + accessToken;
    else if (key) headers['x-api-key'] = key;
    return fetch(endpoint, { method: 'POST', headers: headers, body: JSON.stringify(graphQLParams), credentials: 'omit' })
      .then(function (response) { return response.json(); });
  }
  var props = {
    fetcher: fetcher,
    isHeadersEditorEnabled: false,
    shouldPersistHeaders: false,
    defaultQuery: '# Type your API key above, then run a query, e.g.\\n{\\n  me {\\n    id\\n    name\\n    role\\n  }\\n}\\n',
  };
  if (params.get('query')) props.query = params.get('query');
  if (params.get('variables')) props.variables = params.get('variables');
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, props));

  /**
   * Sign-in with the Authorization Code flow and PKCE (RFC 7636, S256) against the configured issuer: the
   * button sends the browser to the issuer's authorization endpoint with a fresh verifier's challenge and
   * state (kept in sessionStorage for the round trip only); back here with ?code&state, the code is
   * exchanged at the token endpoint with the verifier, and the URL loses both.
   */
  function signInFlow() {
    var bar = document.querySelector('.gi-bar');
    var button = document.getElementById('sign-in');
    var status = document.getElementById('signed-in');
    if (!bar.dataset.issuer || !button) return;
    var issuer = bar.dataset.issuer;
    var redirectUri = window.location.origin + window.location.pathname;
    var discovery = function () {
      return fetch(issuer.replace(/[/]$/, '') + '/.well-known/openid-configuration', { credentials: 'omit' }).then(function (r) {
        if (!r.ok) throw new Error('discovery answered ' + r.status);
        return r.json();
      });
    };
    button.addEventListener('click', function () {
      var verifier = randomText();
      var state = randomText();
      Promise.all([discovery(), sha256(verifier)]).then(function (got) {
        sessionStorage.setItem('gi-sign-in', JSON.stringify({ verifier: verifier, state: state }));
        var url = new URL(got[0].authorization_endpoint);
        var query = { response_type: 'code', client_id: bar.dataset.clientId, redirect_uri: redirectUri, scope: bar.dataset.scope, state: state, code_challenge: got[1], code_challenge_method: 'S256' };
        var extra = JSON.parse(bar.dataset.params || '{}');
        Object.keys(extra).forEach(function (k) { query[k] = extra[k]; });
        url.search = new URLSearchParams(query).toString();
        window.location.assign(url.toString());
      }).catch(function (err) { status.textContent = 'Sign-in failed: ' + err.message; });
    });
    var code = params.get('code');
    var returned = params.get('state');
    if (!code && !params.get('error')) return;
    var pending = JSON.parse(sessionStorage.getItem('gi-sign-in') || 'null');
    sessionStorage.removeItem('gi-sign-in');
    ['code', 'state', 'iss', 'session_state', 'error', 'error_description'].forEach(function (k) { params.delete(k); });
    var rest = params.toString();
    window.history.replaceState(null, '', redirectUri + (rest ? '?' + rest : ''));
    if (!code) { status.textContent = 'Sign-in refused by the issuer.'; return; }
    if (!pending || pending.state !== returned) { status.textContent = 'Sign-in failed: the answer does not match the request (state).'; return; }
    discovery().then(function (d) {
      var form = new URLSearchParams({ grant_type: 'authorization_code', code: code, redirect_uri: redirectUri, client_id: bar.dataset.clientId, code_verifier: pending.verifier });
      return fetch(d.token_endpoint, { method: 'POST', body: form, credentials: 'omit' });
    }).then(function (r) { return r.json(); }).then(function (answer) {
      if (!answer.access_token) throw new Error(answer.error_description || answer.error || 'no access token');
      accessToken = answer.access_token;
      var claims = JSON.parse(atob(accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
      status.textContent = 'Signed in as ' + claims.sub;
      button.textContent = 'Sign in again';
    }).catch(function (err) { status.textContent = 'Sign-in failed: ' + err.message; });
  }
  function base64url(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
  }
  function randomText() {
    return base64url(crypto.getRandomValues(new Uint8Array(32)));
  }
  function sha256(text) {
    return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then(function (d) { return base64url(new Uint8Array(d)); });
  }
})();
`;
}

function explorerStyle(): string {
  return `html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
.gi-bar { display: flex; align-items: center; gap: 0.6rem; padding: 0.4rem 0.8rem; background: #0b3d2e; color: #fff; font-size: 14px; }
.gi-bar input { width: 28rem; max-width: 40vw; padding: 0.25rem 0.4rem; font-family: ui-monospace, monospace; }
.gi-hint { opacity: 0.75; font-size: 12px; }
#signed-in { opacity: 1; }
#graphiql { flex: 1; min-height: 0; }
`;
}
