/**
 * The claim page's one script (the chain service renders the page, claim-pages.ts, which loads it), served
 * by the gateway (GET /claim/fill-code.js) so the page's CSP can
 * stay `script-src 'self'`. The e-mailed link carries the receiver code in its fragment (`#code=…`),
 * which a browser never sends to a server: no access log, proxy or Referer sees it. The script moves it
 * into the form, which POSTs it, and takes it out of the address bar and the history. Without script the
 * form still works: the recipient types the code from the e-mail.
 */
export const CLAIM_SCRIPT_PATH = '/claim/fill-code.js';

export const CLAIM_SCRIPT = `'use strict';
(function () {
  var code = new URLSearchParams(location.hash.slice(1)).get('code');
  if (!code || !/^[A-Za-z0-9_-]{1,128}$/.test(code)) return;
  var field = document.getElementById('code');
  if (field && !field.value) field.value = code;
  history.replaceState(null, '', location.pathname + location.search);
})();
`;
