import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, html } from './html.js';
import { link, page } from './page.js';

/** The page shell every service's page uses: what it interpolates is escaped, its links are http(s) or relative. */

const EVIL = `<script>alert("x")</script>&'`;

test('escaping: text and attribute values, templates escape what they interpolate', () => {
  assert.equal(escapeHtml(EVIL), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  assert.equal(html`<p title="${EVIL}">${EVIL}</p>`.text, `<p title="${escapeHtml(EVIL)}">${escapeHtml(EVIL)}</p>`);
  assert.equal(html`<p>${html`<b>${'<i>'}</b>`}${[1, '<', null, undefined, false]}</p>`.text, '<p><b>&lt;i&gt;</b>1&lt;</p>');
  assert.doesNotMatch(page(EVIL, html``), /<script>/);
});

test('links: http(s) and relative only', () => {
  assert.match(link('https://scan.org/tx/0x1', 'tx').text, /href="https:\/\/scan.org\/tx\/0x1"/);
  assert.match(link('../ipfs/bafk', 'm').text, /href="..\/ipfs\/bafk"/);
  assert.match(link('abc.pdf', 'm').text, /href="abc.pdf"/);
  for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'vbscript:x']) assert.match(link(bad, 'x').text, /href="#"/, bad);
});
