import { createRequire } from 'node:module';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { NotFoundError } from '@green-impact/shared/errors';
import { routeLabel } from '../request-context.js';

/**
 * The GraphQL explorer: GraphiQL served entirely from this gateway (its UMD build and React 18's, from
 * node_modules; nothing from a CDN), for browsers that open /graphql. The API key is typed on the page
 * and sent as X-Api-Key with each request; the page neither stores it nor sends it anywhere else. Pages
 * carry a strict Content-Security-Policy: scripts only from this origin, requests only to it.
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

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // GraphiQL and CodeMirror set style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Mount before the GraphQL handler; `enabled` false serves nothing (production default). */
export function explorerRoutes(enabled: boolean): Router {
  const router = Router();
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

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
}

// Asset URLs are relative to the page (…/graphql), so the explorer works behind a path prefix.
const PAGE = `<!doctype html>
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
<header class="gi-bar">
  <strong>Green-asset impact · GraphQL</strong>
  <label for="api-key">API key</label>
  <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck="false" placeholder="X-Api-Key value">
  <span class="gi-hint">Sent as X-Api-Key with each request from this page; never stored.</span>
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
  function fetcher(graphQLParams) {
    var headers = { 'content-type': 'application/json', accept: 'application/json' };
    var key = keyInput.value.trim();
    if (key) headers['x-api-key'] = key;
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
})();
`;
}

function explorerStyle(): string {
  return `html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
.gi-bar { display: flex; align-items: center; gap: 0.6rem; padding: 0.4rem 0.8rem; background: #0b3d2e; color: #fff; font-size: 14px; }
.gi-bar input { width: 28rem; max-width: 40vw; padding: 0.25rem 0.4rem; font-family: ui-monospace, monospace; }
.gi-hint { opacity: 0.75; font-size: 12px; }
#graphiql { flex: 1; min-height: 0; }
`;
}
