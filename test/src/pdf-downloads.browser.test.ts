import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningSystem } from '@green-impact/embedded/system';
import { executablePath, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { createLogger } from '@green-impact/shared/logger';
import { startPdfServer, type PdfServer } from '@green-impact/shared/pdf/server';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ESG, seedAccount, seedReferenceData, YEAR, type AccountData } from './support/dataset.js';
import { writeHtmlDocuments } from './support/document-links.js';
import { createUserAccount, ok, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const OPERATOR = 'pdf-downloads-operator-key';
const LIMITS = { concurrency: 2, maxQueue: 8, timeoutMs: 30_000, maxHtmlBytes: 2 * 1024 * 1024, maxPdfBytes: 16 * 1024 * 1024 };

/**
 * "Download PDF" of every page, on the whole embedded system whose gateway prints through the renderer
 * service over real HTTP (PDF_RENDERER_URL), Debian's Chromium behind it: each PDF is a PDF, A4, its text
 * (read back with pdf.js) holds the page's figures, and it is authorized exactly as its HTML page.
 */
describe('PDF downloads of documents and reports', { skip: skipWithoutChromium }, () => {
  let renderer: PdfServer;
  let system: RunningSystem;
  let a: AccountData;
  const links = { framework: '', impacts: '', portfolioReport: '', investorReport: '' };
  let totals: { indicator_name: string; unit_name: string; value: number }[] = [];
  const txHashes = { framework: '', impacts: '' };

  before(async () => {
    renderer = await startPdfServer({ chromiumPath: executablePath, host: '127.0.0.1', port: 0, drainMs: 5_000, ...LIMITS }, createLogger('pdf-renderer'));
    system = await startTestSystem(testDatabases[0]!, OPERATOR, { pdfRendererUrl: `http://127.0.0.1:${renderer.port}` });
    const owner = await createUserAccount(system.gatewayUrl, OPERATOR, 'Pdf Owner');
    const esg = conformingV1Client(system.gatewayUrl, owner);
    a = await seedAccount(esg, 'D', await seedReferenceData(conformingV1Client(system.gatewayUrl, OPERATOR)));
    const written = await writeHtmlDocuments(esg, a);
    Object.assign(links, written.links);
    Object.assign(txHashes, written.txHashes);
    links.portfolioReport = (await ok(esg(ESG, 'getHtmlPortfolioImpactReport', { portfolio_identifier: a.portfolio, reporting_year: YEAR }), 'report link'))['Portfolio impact report'];
    links.investorReport = (await ok(esg(ESG, 'getHtmlInvestorImpactReport', { investor_identifier: a.investor, reporting_year: YEAR }), 'report link'))['Investor impact report'];
    totals = (await ok(esg(ESG, 'getPortfolioImpacts', { portfolio_identifier: a.portfolio, reporting_year: YEAR, include_records: 'no' }), 'totals')).totals;
    assert.ok(totals.length > 0, 'the portfolio has impacts');
  });
  after(async () => {
    await system?.stop();
    await renderer?.close();
  });

  /** The page's "Download PDF" link, fetched: the PDF's bytes, headers checked. */
  async function download(pageUrl: string): Promise<{ pdf: Buffer; text: string; pages: number; box: number[] }> {
    const page = await fetch(pageUrl);
    assert.equal(page.status, 200, pageUrl);
    const href = /<p class="pdf-download"><a href="([^"]+)">Download PDF<\/a><\/p>/.exec(await page.text())?.[1];
    assert.ok(href, 'the page links its PDF');
    const answer = await fetch(new URL(href.replace(/&amp;/g, '&'), pageUrl));
    assert.equal(answer.status, 200, href);
    assert.equal(answer.headers.get('content-type'), 'application/pdf');
    assert.match(answer.headers.get('content-disposition') ?? '', /^attachment; filename="[^"]+\.pdf"$/);
    assert.match(answer.headers.get('cache-control') ?? '', /^private/);
    const pdf = Buffer.from(await answer.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const task = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false });
    const doc = await task.promise;
    let text = '';
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      text += content.items.map((item) => ('str' in item ? item.str : '')).join(' ') + '\n';
    }
    const box = (await doc.getPage(1)).view;
    const pages = doc.numPages;
    await task.destroy();
    return { pdf, text, pages, box };
  }

  /** A4 in points, portrait or landscape, as Chromium rounds it (595.28 × 841.89 within 2 points). */
  function assertA4(box: number[], landscape: boolean): void {
    const [w, h] = [box[2]! - box[0]!, box[3]! - box[1]!];
    const [short, long] = landscape ? [h, w] : [w, h];
    assert.ok(Math.abs(short - 595.28) < 2 && Math.abs(long - 841.89) < 2, `A4${landscape ? ' landscape' : ''}: ${w} × ${h}`);
  }

  /** The text without spaces or digit group separators: pdf.js splits words at ligatures ("Veri fi ed") and lines. */
  const squeeze = (text: string) => text.replace(/[\s,]+/g, '');

  for (const kind of ['framework', 'impacts'] as const) {
    it(`the ${kind} document's PDF is the page printed: A4, the anchoring facts and the figures`, { timeout: 120_000 }, async () => {
      const html = await fetch(links[kind]);
      const sha256 = html.headers.get('x-document-sha256')!;
      const { text, pages, box } = await download(links[kind]);
      assert.ok(pages >= 1);
      assertA4(box, false);
      const all = squeeze(text);
      assert.ok(all.includes('Anchoredontheblockchain'));
      assert.ok(all.includes("Verified:thecontent'sSHA-256equalsthehashanchoredonsepolia"));
      assert.ok(all.includes(sha256), 'the content hash');
      assert.ok(all.includes(txHashes[kind]), 'the transaction');
      assert.ok(!all.includes('DownloadPDF'), 'the link is not printed');
      if (kind === 'framework') {
        assert.ok(all.includes(`Frameworkidentifier${a.framework}`), 'the framework identifier');
        // The seeded row (dataset.ts): 500,000.00 EUR of Solar power, 1,234.50 MWh of Energy generated.
        assert.ok(all.includes('SolarpowerEnergyEnergygenerated') || all.includes('Solarpower500000.00'), 'the row');
        assert.ok(all.includes('Energygenerated1234.50MWh'), 'the indicator value');
      } else {
        for (const t of totals) assert.ok(all.includes(`${squeeze(t.indicator_name)}MWh${t.value.toFixed(2)}`), `the total of ${t.indicator_name}: ${t.value.toFixed(2)}`);
      }
    });
  }

  for (const kind of ['portfolioReport', 'investorReport'] as const) {
    it(`the ${kind === 'portfolioReport' ? 'portfolio' : 'investor'} report's PDF holds its totals, A4 landscape`, { timeout: 120_000 }, async () => {
      const { text, pages, box } = await download(links[kind]);
      assert.ok(pages >= 1);
      assertA4(box, true);
      const all = squeeze(text);
      assert.ok(all.includes(`Impactreport${YEAR}`));
      assert.ok(!all.includes('DownloadPDF'), 'the link is not printed');
      for (const t of totals) assert.ok(all.includes(`${squeeze(t.indicator_name)}${squeeze(t.unit_name)}${t.value.toFixed(2)}`), `the total ${t.value.toFixed(2)} of ${t.indicator_name}`);
    });
  }

  it('a PDF is authorized as its page: no link, an altered link, an expired link answer what the HTML answers', { timeout: 60_000 }, async () => {
    for (const link of Object.values(links)) {
      const url = new URL(link);
      const pdf = (u: URL) => {
        const p = new URL(u);
        p.pathname = p.pathname.replace(/\.html$/, '.pdf');
        return p;
      };
      const bare = new URL(url.pathname, url.origin);
      const altered = new URL(url);
      altered.searchParams.set('sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`);
      const expired = new URL(url);
      expired.searchParams.set('exp', '1000000000');
      for (const variant of [bare, altered, expired]) {
        const [h, p, q] = await Promise.all([fetch(variant), fetch(pdf(variant)), fetch(`${variant.toString()}${variant.search ? '&' : '?'}format=pdf`)]);
        assert.notEqual(h.status, 200, variant.toString());
        assert.equal(p.status, h.status, `${pdf(variant)} answers as ${variant}`);
        assert.equal(q.status, h.status, `format=pdf answers as ${variant}`);
        assert.notEqual(p.headers.get('content-type'), 'application/pdf');
      }
    }
  });
});

describe('the PDF renderer service', { skip: skipWithoutChromium }, () => {
  let renderer: PdfServer;
  before(async () => {
    renderer = await startPdfServer({ chromiumPath: executablePath, host: '127.0.0.1', port: 0, drainMs: 5_000, ...LIMITS, maxHtmlBytes: 64 * 1024 }, createLogger('pdf-renderer'));
  });
  after(() => renderer?.close());
  const url = (path: string) => `http://127.0.0.1:${renderer.port}${path}`;
  const render = (body: string, type = 'text/html') => fetch(url('/render'), { method: 'POST', headers: { 'content-type': type }, body });

  it('is healthy and ready, and counts its renders in /metrics', async () => {
    assert.equal((await fetch(url('/healthz'))).status, 200);
    assert.equal((await fetch(url('/readyz'))).status, 200);
    assert.equal((await render('<p>Counted</p>')).status, 200);
    assert.match(await (await fetch(url('/metrics'))).text(), /pdf_renders_total\{outcome="ok"\} [1-9]/);
  });

  it('lets a page reach nothing and run no script', { timeout: 60_000 }, async () => {
    // A server the page would call, were anything let through.
    const { createServer } = await import('node:http');
    let reached = 0;
    const target = createServer((_req, res) => {
      reached++;
      res.end('x');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as { port: number }).port;
    try {
      const page = `<html><head><link rel="stylesheet" href="http://127.0.0.1:${port}/a.css"></head><body><p id="t">Static text</p><img src="http://127.0.0.1:${port}/b.png"><script>document.getElementById('t').textContent='Script ran';fetch('http://127.0.0.1:${port}/c')</script></body></html>`;
      const answer = await render(page);
      assert.equal(answer.status, 200);
      const task = getDocument({ data: new Uint8Array(await answer.arrayBuffer()) });
      const text = (await (await (await task.promise).getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
      await task.destroy();
      assert.match(text, /Static text/);
      assert.doesNotMatch(text, /Script ran/);
      assert.equal(reached, 0, 'no request reached the server');
    } finally {
      target.close();
    }
  });

  it('refuses what it should not print, with clear codes', async () => {
    assert.equal((await render('{}', 'application/json')).status, 415);
    assert.equal((await render(`<p>${'x'.repeat(70 * 1024)}</p>`)).status, 413);
    assert.equal((await fetch(url('/render'))).status, 405);
    assert.equal((await fetch(url('/nothing'))).status, 404);
  });
});
