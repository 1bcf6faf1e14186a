import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { executablePath, skipWithoutChromium } from '@green-impact/testing/gateway/chromium';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { createLogger } from '@green-impact/shared/logger';
import { startPdfServer, type PdfServer } from '@green-impact/shared/pdf/server';

/**
 * The EU GBS documents as pages and PDFs (eu-gbs-routes.ts), the gateway printing through the real renderer
 * service over HTTP (PDF_RENDERER_URL) with Debian's Chromium: the page is getEuGbsDocument's HTML byte for
 * byte (so its hash is the operation's), the PDF is an A4 PDF of it, and both need the owner's key.
 * Worked example: proceeds 1 000; P-1 600 aligned, P-2 150 in the Article 5 pocket (15 % of proceeds, the
 * most allowed). Allocated 750; aligned 600 / 750 = 80.00 %; Article 5 150 / 750 = 20.00 %.
 */

let renderer: PdfServer;
let t: TestGateway;
const ok = async (operation: string, parameters: Record<string, unknown>) => {
  const res = await fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(t.userKey), body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation, parameters }) });
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 200, `${operation}: ${JSON.stringify(body)}`);
  return body;
};
const url = (file: string) => `${t.baseUrl}/reports/frameworks/EUGB/2024/${file}`;

before(async () => {
  if (skipWithoutChromium) return;
  const limits = { concurrency: 1, maxQueue: 4, timeoutMs: 30_000, maxHtmlBytes: 2 * 1024 * 1024, maxPdfBytes: 16 * 1024 * 1024 };
  renderer = await startPdfServer({ chromiumPath: executablePath, host: '127.0.0.1', port: 0, drainMs: 1_000, ...limits }, createLogger('pdf-renderer', { level: 'silent' }));
  t = await startTestGateway({ PDF_RENDERER_URL: `http://127.0.0.1:${renderer.port}` }, { taxonomy: true });
  await ok('addFramework', { framework_identifier: 'EUGB', framework_name: 'European green bond', framework_currency_code: 'EUR' });
  await ok('addYearSpecificsToFramework', { framework_identifier: 'EUGB', value_outstanding: 1000, allocated_amount: 750, reporting_year: 2024, value_outstanding_framework: 'no' });
  const layer = { reporting_year: 2024, environmental_objective: 'climate_change_mitigation', technical_screening_met: 'yes', do_no_significant_harm_met: 'yes', minimum_safeguards_met: 'yes', asset_type: 'capex' };
  for (const [id, amount, code, article5] of [['P-1', 600, '4.1', 'no'], ['P-2', 150, '7.1', 'yes']] as const) {
    await ok('addProject', { project_identifier: id, project_name: `Project ${id}`, project_currency_code: 'EUR', framework_identifier: 'EUGB' });
    await ok('addYearSpecificsToProject', { project_identifier: id, allocated_amount: amount, reporting_year: 2024 });
    await ok('setProjectTaxonomyLayer', { ...layer, project_identifier: id, taxonomy_activity_code: code, taxonomy_activity_name: `Activity ${code}`, article_5: article5 });
  }
});
after(async () => {
  await t?.stop();
  await renderer?.close();
});

test('the page is the operation\'s HTML byte for byte, the PDF an A4 print of it, both for the owner only', { skip: skipWithoutChromium, timeout: 120_000 }, async () => {
  const viaV1 = await ok('getEuGbsDocument', { framework_identifier: 'EUGB', reporting_year: 2024, document: 'allocation_report', publication_date: '2025-03-31' });
  const page = await fetch(url('allocation_report.html?publication_date=2025-03-31'), { headers: { 'x-api-key': t.userKey } });
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = await page.text();
  assert.equal(html, viaV1['content']);
  assert.equal(page.headers.get('x-content-sha256'), createHash('sha256').update(html, 'utf8').digest('hex'));
  assert.match(html, /<tr><th>Taxonomy-aligned share of allocated proceeds<\/th><td class="n">80\.00\u202f%<\/td><\/tr>/);
  assert.match(html, /<tr><th>Article 5 share of allocated proceeds<\/th><td class="n">20\.00\u202f%<\/td><\/tr>/);

  const pdf = await fetch(url('impact_report.pdf'), { headers: { 'x-api-key': t.userKey } });
  assert.equal(pdf.status, 200, await pdf.clone().text());
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.equal(pdf.headers.get('content-disposition'), 'attachment; filename="EUGB-2024-impact_report.pdf"');
  const bytes = Buffer.from(await pdf.arrayBuffer());
  assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
  assert.match(bytes.toString('latin1'), /\/MediaBox \[0 0 59[45]\.\d+ 84[12]\.\d+\]/, 'A4');

  // The signed link getEuGbsDocument answers opens the same page, and its PDF, without a key; altered, a 404 page.
  const link = String(viaV1['url']);
  assert.match(link, /\/reports\/frameworks\/EUGB\/2024\/allocation_report\.html\?acct=[^&]+&exp=\d+&sig=[A-Za-z0-9_-]{43}&publication_date=2025-03-31$/);
  const linked = await fetch(link);
  assert.deepEqual([linked.status, linked.headers.get('cache-control'), await linked.text()], [200, 'private, no-store', html]);
  const linkedPdf = await fetch(link.replace('.html?', '.pdf?'));
  assert.deepEqual([linkedPdf.status, linkedPdf.headers.get('content-type')], [200, 'application/pdf']);
  const altered = await fetch(link.replace('publication_date=2025-03-31', 'publication_date=2025-04-01'));
  assert.equal(altered.status, 404);
  assert.match(await altered.text(), /No such EU Green Bond document\./);

  assert.equal((await fetch(url('factsheet.html'))).status, 401, 'no key, no page');
  const asked = await fetch(url('factsheet.html?publication_date=2025-13-01'), { headers: { 'x-api-key': t.userKey } });
  assert.deepEqual([asked.status, ((await asked.json()) as { message: string }).message], [400, 'publication_date must be a date YYYY-MM-DD, got "2025-13-01".']);
  assert.equal((await fetch(url('annual_report.html'), { headers: { 'x-api-key': t.userKey } })).status, 404);
});
