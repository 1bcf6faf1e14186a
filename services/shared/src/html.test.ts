import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, html, Html } from './html.js';

const EVIL = `<script>alert("x")</script>&'`;

describe('HTML escaping', () => {
  it('escapes the five markup characters and keeps other text', () => {
    assert.equal(escapeHtml(EVIL), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    assert.equal(escapeHtml(`<a href="x">Tom & Jerry's</a>`), '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    assert.equal(escapeHtml('Förnybar energi 1\u202f000.00\u00a0EUR'), 'Förnybar energi 1\u202f000.00\u00a0EUR');
    assert.equal(escapeHtml(42), '42');
  });

  it('the html template escapes values, keeps Html, joins arrays and drops empty values', () => {
    assert.equal(html`<p title="${EVIL}">${EVIL}</p>`.text, `<p title="${escapeHtml(EVIL)}">${escapeHtml(EVIL)}</p>`);
    assert.equal(html`<ul>${['<a>', html`<li>b</li>`]}</ul>`.text, '<ul>&lt;a&gt;<li>b</li></ul>');
    assert.equal(html`${undefined}${null}${false}${0}`.text, '0');
    assert.ok(html`x` instanceof Html);
  });
});
