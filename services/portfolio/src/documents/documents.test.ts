import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DocumentFormat, Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { RenderPositionImpactsDocumentRequest } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { generateEncryptionKey, WRONG_KEY_MESSAGE } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

for (const db of testDatabases) {
  describe(`position impacts documents over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const me = () => ({ caller: h.investor });
    const key = generateEncryptionKey();
    let plainPosition: number;
    let secretPosition: number;
    const render = (req: Partial<RenderPositionImpactsDocumentRequest> & { positionId: number }) =>
      h.portfolio.renderPositionImpactsDocument(
        {
          reportingYear: 2024,
          format: DocumentFormat.DOCUMENT_FORMAT_JSON,
          sdgGoalsIncluded: false,
          euObjectivesIncluded: false,
          writeInvestorToBlockchain: false,
          ...req,
        },
        me(),
      );

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-2029', assetName: 'Green Bond 2029', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-plain', investorName: 'Plain <Fund> & Co', investorCurrencyCode: 'EUR', investorEmail: 'plain@example.org' }, me());
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-secret', investorName: 'Secret Fund', investorCurrencyCode: 'EUR', encryptionKey: key }, me());
      plainPosition = (await h.portfolio.addPosition(
        { investorIdentifier: 'inv-plain', assetIdentifier: 'GB-2029', positionAmount: 100_000, positionCurrencyCode: 'SEK', reportingYear: 2024, positionStartDate: '2024-07-01' },
        me(),
      )).id!;
      // No impacts stored yet: rendering computes them first.
      secretPosition = (await h.portfolio.addPosition(
        { investorIdentifier: 'inv-secret', assetIdentifier: 'GB-2029', positionAmount: 1_000, positionCurrencyCode: 'EUR' },
        me(),
      )).id!;
    });
    after(async () => {
      await h?.stop();
    });

    it('renders canonical JSON without the investor by default, hashed and deterministic', async () => {
      const r = await render({ positionId: plainPosition });
      assert.equal(r.contentType, 'application/json');
      assert.equal(r.sha256, createHash('sha256').update(r.content).digest('hex'));
      assert.deepEqual([r.investorIdentifier, r.positionId, r.assetIdentifier, r.frameworkIdentifier], ['inv-plain', plainPosition, 'GB-2029', FRAMEWORK]);
      const text = r.content.toString('utf8');
      const doc = JSON.parse(text);
      // write_investor_to_blockchain=no: no investor-identifying field at all (the identifier included).
      assert.equal(doc.investor, undefined);
      assert.ok(!text.includes('inv-plain') && !text.includes('Plain') && !text.includes('plain@example.org'));
      assert.equal(doc.decimals, 2);
      // 0.0032 · 184/366 · 12 500 = 20.109… → 20.11 with the default 2 decimals.
      assert.equal(doc.impacts.find((i: { indicator_name: string; sub_category_name: string }) => i.indicator_name === 'GHG avoided' && i.sub_category_name === 'Solar power').impact, 20.11);
      assert.equal(doc.attribution.holding_days_in_year, 184);
      assert.equal(doc.position.position_start_date, '2024-07-01');
      assert.equal((await render({ positionId: plainPosition })).sha256, r.sha256, 'same data, same bytes');
    });

    it('includes plain PII only when asked to write the investor', async () => {
      const doc = JSON.parse((await render({ positionId: plainPosition, writeInvestorToBlockchain: true })).content.toString('utf8'));
      assert.deepEqual(doc.investor, { investor_identifier: 'inv-plain', investor_name: 'Plain <Fund> & Co', investor_email: 'plain@example.org' });
    });

    it('needs the right key to write an encrypted investor, and computes missing impacts first', async () => {
      await rejectsWith(render({ positionId: secretPosition, writeInvestorToBlockchain: true }), 'INVALID_ARGUMENT',
        "The investor's personal data is encrypted; pass its decryption_key to write it to the blockchain, or set write_investor_to_blockchain to no.");
      await rejectsWith(render({ positionId: secretPosition, writeInvestorToBlockchain: true, decryptionKey: generateEncryptionKey() }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
      const withKey = await render({ positionId: secretPosition, writeInvestorToBlockchain: true, decryptionKey: key });
      assert.equal(JSON.parse(withKey.content.toString('utf8')).investor.investor_name, 'Secret Fund');
      const without = JSON.parse((await render({ positionId: secretPosition })).content.toString('utf8'));
      assert.equal(without.investor, undefined);
      assert.equal(without.impacts.length, 3);
      const [p] = (await h.portfolio.getPositionsByIds({ positionIds: [secretPosition] }, me())).positions;
      assert.deepEqual(p!.impactYears, [2024]);
    });

    it('renders a self-contained, escaped HTML page, translated and with SDGs and EU objectives on request', async () => {
      const r = await render({
        positionId: plainPosition,
        format: DocumentFormat.DOCUMENT_FORMAT_HTML,
        writeInvestorToBlockchain: true,
        languageCode: 'sv',
        sdgGoalsIncluded: true,
        euObjectivesIncluded: true,
        decimals: 3,
      });
      assert.equal(r.contentType, 'text/html; charset=utf-8');
      const html = r.content.toString('utf8');
      assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="sv">'));
      assert.ok(html.includes('Plain &lt;Fund&gt; &amp; Co'));
      assert.ok(html.includes('Undvikna växthusgaser'));
      // SDG 7 and EU objective 1 of the solar rows, named in Swedish like the rest.
      assert.match(html, /<td>7 [^<]+<\/td><td>1 [^<]+<\/td><\/tr>/);
      assert.ok(html.includes('<td class="n">20.109</td>'));
      assert.ok(!/<script|<link|src=/i.test(html));
      const json = JSON.parse((await render({ positionId: plainPosition, sdgGoalsIncluded: true })).content.toString('utf8'));
      assert.ok(json.impacts.every((i: object) => 'sdg' in i && !('eu_objective' in i)));
    });

    it('refuses unknown positions, other accounts and bad parameters', async () => {
      await rejectsWith(render({ positionId: 999_999 }), 'NOT_FOUND', 'No such position 999999.');
      await rejectsWith(
        h.portfolio.renderPositionImpactsDocument(
          { positionId: plainPosition, reportingYear: 2024, format: DocumentFormat.DOCUMENT_FORMAT_JSON, sdgGoalsIncluded: false, euObjectivesIncluded: false, writeInvestorToBlockchain: false },
          { caller: h.stranger },
        ),
        'NOT_FOUND',
      );
      await rejectsWith(render({ positionId: plainPosition, format: DocumentFormat.DOCUMENT_FORMAT_UNSPECIFIED }), 'INVALID_ARGUMENT', 'format must be JSON or HTML.');
      await rejectsWith(render({ positionId: plainPosition, decimals: 11 }), 'INVALID_ARGUMENT', 'decimals must be an integer from 0 to 10, got 11.');
      await rejectsWith(render({ positionId: plainPosition, reportingYear: 2022 }), 'FAILED_PRECONDITION');
    });
  });
}
