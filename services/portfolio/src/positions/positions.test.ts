import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { generateEncryptionKey, MASKED, WRONG_KEY_MESSAGE } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture, PRIVATE_FRAMEWORK } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

for (const db of testDatabases) {
  describe(`positions and portfolios over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const me = () => ({ caller: h.investor });
    const key = generateEncryptionKey();
    const ids: Record<string, number> = {};
    const add = async (name: string, investorIdentifier: string, assetIdentifier: string, amount: number, extra: Record<string, unknown> = {}) => {
      const r = await h.portfolio.addPosition({ investorIdentifier, assetIdentifier, positionAmount: amount, positionCurrencyCode: 'EUR', ...extra }, me());
      ids[name] = r.id!;
      return r;
    };

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      const asset = (assetIdentifier: string, issuerIdentifier: string, frameworkIdentifier: string, assetVisibility: Visibility) =>
        h.portfolio.addAsset(
          { assetIdentifier, assetName: `${assetIdentifier} bond`, issuerIdentifier, frameworkIdentifier, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility },
          { caller: h.issuer },
        );
      await asset('PUB-1', 'ISSUER-A', FRAMEWORK, Visibility.VISIBILITY_PUBLIC);
      await asset('PUB-2', 'ISSUER-B', FRAMEWORK, Visibility.VISIBILITY_PUBLIC);
      await asset('PRIV', 'ISSUER-A', PRIVATE_FRAMEWORK, Visibility.VISIBILITY_PRIVATE);
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-1', investorName: 'First Fund', investorCurrencyCode: 'EUR' }, me());
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-2', investorName: 'Second Fund', investorCurrencyCode: 'EUR', encryptionKey: key }, me());
    });
    after(async () => {
      await h?.stop();
    });

    it('adds positions in public assets of other accounts, with the spec defaults', async () => {
      const r = await add('a', 'inv-1', 'PUB-1', 100_000, { positionCurrencyCode: 'sek' });
      assert.equal(r.message, `Position added with id ${r.id}.`);
      assert.deepEqual(r.impacts, []);
      await add('b', 'inv-1', 'PUB-2', 5_000, { positionDays: 90, positionStartDate: '2024-02-01' });
      await add('c', 'inv-2', 'PUB-1', 7_000);
      // A second position of one investor in one asset is another position.
      await add('d', 'inv-1', 'PUB-1', 1_000);
      const [a] = (await h.portfolio.getPositionsByIds({ positionIds: [ids['a']!] }, me())).positions;
      assert.deepEqual(a, {
        positionId: ids['a'],
        positionAmount: 100_000,
        positionCurrencyCode: 'SEK',
        positionDays: 365,
        positionStartDate: undefined,
        investorIdentifier: 'inv-1',
        investorName: 'First Fund',
        assetIdentifier: 'PUB-1',
        assetName: 'PUB-1 bond',
        issuerIdentifier: 'ISSUER-A',
        issuerName: 'ISSUER-A',
        masked: false,
        impactYears: [],
      });
      const [b] = (await h.portfolio.getPositionsByIds({ positionIds: [ids['b']!] }, me())).positions;
      assert.deepEqual([b!.positionDays, b!.positionStartDate], [90, '2024-02-01']);
    });

    it('refuses unknown investors, invisible assets and invalid terms', async () => {
      const base = { investorIdentifier: 'inv-1', assetIdentifier: 'PUB-1', positionAmount: 1, positionCurrencyCode: 'EUR' };
      await rejectsWith(h.portfolio.addPosition({ ...base, investorIdentifier: 'nobody' }, me()), 'NOT_FOUND', 'No such investor.');
      await rejectsWith(h.portfolio.addPosition({ ...base, assetIdentifier: 'PRIV' }, me()), 'NOT_FOUND', 'No such asset "PRIV".');
      await rejectsWith(h.portfolio.addPosition({ ...base, positionAmount: 0 }, me()), 'INVALID_ARGUMENT', 'position_amount must be a positive number.');
      await rejectsWith(h.portfolio.addPosition({ ...base, positionDays: 0 }, me()), 'INVALID_ARGUMENT',
        'position_days must be a whole number of days from 1 to 36525, got 0.');
      await rejectsWith(h.portfolio.addPosition({ ...base, positionStartDate: '2024-13-01' }, me()), 'INVALID_ARGUMENT');
      await rejectsWith(h.portfolio.addPosition({ ...base, reportingYear: 24 }, me()), 'INVALID_ARGUMENT',
        'reporting_year must be a 4-digit year from 1900 to 2200, got 24.');
      await rejectsWith(h.portfolio.addPosition(base, { caller: h.stranger }), 'NOT_FOUND', 'No such investor.');
    });

    it('lists positions by investor, asset and issuer, with masked or decrypted investor names', async () => {
      const list = async (req: Record<string, unknown>) =>
        (await h.portfolio.getPositions({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false, ...req }, me())).positions;
      assert.deepEqual((await list({ investorIdentifier: 'inv-1' })).map((p) => p.positionId), [ids['a'], ids['b'], ids['d']]);
      assert.deepEqual((await list({ investorIdentifier: 'inv-1', assetIdentifier: 'PUB-1' })).map((p) => p.positionId), [ids['a'], ids['d']]);
      assert.deepEqual((await list({ issuerIdentifier: 'ISSUER-B' })).map((p) => p.positionId), [ids['b']]);
      const all = await list({});
      assert.equal(all.length, 4);
      const c = all.find((p) => p.positionId === ids['c'])!;
      assert.deepEqual([c.investorName, c.masked], [MASKED, true]);
      const clear = (await list({ decryptionKey: key })).find((p) => p.positionId === ids['c'])!;
      assert.deepEqual([clear.investorName, clear.masked], ['Second Fund', false]);
      await rejectsWith(list({ decryptionKey: generateEncryptionKey() }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
      await rejectsWith(list({ investorIdentifier: 'nobody' }), 'NOT_FOUND', 'No such investor.');
      assert.deepEqual((await h.portfolio.getPositions({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false }, { caller: h.stranger })).positions, []);
    });

    it("limits listings to a user's investors when the gateway passes them", async () => {
      const list = async (req: Record<string, unknown>) =>
        (await h.portfolio.getPositions({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: true, ...req }, me())).positions;
      assert.deepEqual((await list({ investorIdentifiersAllowed: ['inv-2'] })).map((p) => p.positionId), [ids['c']]);
      assert.deepEqual(await list({ investorIdentifiersAllowed: [] }), []);
      assert.deepEqual(await list({ investorIdentifier: 'inv-1', investorIdentifiersAllowed: ['inv-2'] }), []);
      // Not active: the list is ignored.
      assert.equal((await list({ investorFilterActive: false, investorIdentifiersAllowed: ['inv-2'] })).length, 4);
    });

    it('reads positions by ids in the order asked; other accounts see none of them', async () => {
      const { positions } = await h.portfolio.getPositionsByIds({ positionIds: [ids['c']!, 999_999, ids['a']!] }, me());
      assert.deepEqual(positions.map((p) => p.positionId), [ids['c'], ids['a']]);
      assert.deepEqual((await h.portfolio.getPositionsByIds({ positionIds: [ids['a']!] }, { caller: h.stranger })).positions, []);
    });

    it('refuses to remove an asset while positions hold it', async () => {
      await rejectsWith(h.portfolio.removeAsset({ assetIdentifier: 'PUB-1' }, { caller: h.issuer }), 'FAILED_PRECONDITION',
        'Asset "PUB-1" is still held by positions of other accounts; remove them first.');
      await h.portfolio.addInvestor({ investorIdentifier: 'own', investorName: 'Own book', investorCurrencyCode: 'EUR' }, { caller: h.issuer });
      const own = await h.portfolio.addPosition({ investorIdentifier: 'own', assetIdentifier: 'PRIV', positionAmount: 1, positionCurrencyCode: 'EUR' }, { caller: h.issuer });
      await rejectsWith(h.portfolio.removeAsset({ assetIdentifier: 'PRIV' }, { caller: h.issuer }), 'FAILED_PRECONDITION',
        `Asset "PRIV" is still held by position ${own.id}; remove them first.`);
      await h.portfolio.removePosition({ investorIdentifier: 'own', positionId: own.id! }, { caller: h.issuer });
      assert.equal((await h.portfolio.removeAsset({ assetIdentifier: 'PRIV' }, { caller: h.issuer })).message, 'Asset removed.');
    });

    it('adds, renames and lists portfolios', async () => {
      const added = await h.portfolio.addPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'core' }, me());
      assert.equal(added.message, `Portfolio added with id ${added.id}.`);
      assert.deepEqual(await h.portfolio.addPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'core' }, me()), {
        message: `Portfolio already exists with id ${added.id}.`,
        id: added.id,
      });
      await rejectsWith(h.portfolio.addPortfolio({ investorIdentifier: 'inv-2', portfolioIdentifier: 'core' }, me()), 'ALREADY_EXISTS',
        'A portfolio "core" already exists.');
      await h.portfolio.addPortfolio({ investorIdentifier: 'inv-2', portfolioIdentifier: 'second' }, me());
      await rejectsWith(h.portfolio.addPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'core', portfolioIdentifierChanged: 'second' }, me()),
        'ALREADY_EXISTS', 'A portfolio "second" already exists.');
      await rejectsWith(h.portfolio.addPortfolio({ investorIdentifier: 'inv-2', portfolioIdentifier: 'core', portfolioIdentifierChanged: 'x' }, me()),
        'NOT_FOUND', 'No portfolio "core" of investor "inv-2".');
      await rejectsWith(h.portfolio.addPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'nope', portfolioIdentifierChanged: 'x' }, me()),
        'NOT_FOUND', 'No such portfolio "nope".');
      const renamed = await h.portfolio.addPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'core', portfolioIdentifierChanged: 'green-core' }, me());
      assert.deepEqual(renamed, { message: 'Portfolio changed.', id: added.id });
      await rejectsWith(h.portfolio.addPortfolio({ investorIdentifier: 'nobody', portfolioIdentifier: 'p' }, me()), 'NOT_FOUND', 'No such investor.');
    });

    it('adds positions of the portfolio investor to it, once', async () => {
      const to = (positionId: number, investorIdentifier = 'inv-1', portfolioIdentifier = 'green-core') =>
        h.portfolio.addPositionToPortfolio({ investorIdentifier, portfolioIdentifier, positionId }, me());
      assert.equal((await to(ids['a']!)).message, 'Position added to portfolio.');
      await to(ids['b']!);
      await to(ids['d']!);
      await rejectsWith(to(ids['a']!), 'ALREADY_EXISTS', `Position ${ids['a']} is already in portfolio "green-core".`);
      await rejectsWith(to(ids['c']!), 'NOT_FOUND', `No position ${ids['c']} of investor "inv-1".`);
      await rejectsWith(to(ids['c']!, 'inv-2'), 'NOT_FOUND', 'No portfolio "green-core" of investor "inv-2".');
      await rejectsWith(to(ids['a']!, 'inv-1', 'nope'), 'NOT_FOUND', 'No such portfolio "nope".');
      await to(ids['c']!, 'inv-2', 'second');

      const list = async (req: Record<string, unknown>) =>
        (await h.portfolio.getPortfolios({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false, ...req }, me())).portfolios;
      const [core] = await list({ investorIdentifier: 'inv-1' });
      assert.deepEqual(core, {
        portfolioId: core!.portfolioId,
        portfolioIdentifier: 'green-core',
        investorIdentifier: 'inv-1',
        investorName: 'First Fund',
        assets: [
          { assetIdentifier: 'PUB-1', assetName: 'PUB-1 bond' },
          { assetIdentifier: 'PUB-2', assetName: 'PUB-2 bond' },
        ],
        masked: false,
        positionIds: [ids['a'], ids['b'], ids['d']],
      });
      assert.deepEqual((await list({ assetIdentifier: 'PUB-2' })).map((p) => p.portfolioIdentifier), ['green-core']);
      const all = await list({});
      assert.deepEqual(all.map((p) => [p.portfolioIdentifier, p.investorName]), [['green-core', 'First Fund'], ['second', MASKED]]);
      assert.equal((await list({ decryptionKey: key }))[1]!.investorName, 'Second Fund');
      assert.deepEqual((await list({ investorFilterActive: true, investorIdentifiersAllowed: ['inv-2'] })).map((p) => p.portfolioIdentifier), ['second']);
      assert.deepEqual(await list({ investorFilterActive: true }), []);
      assert.deepEqual((await h.portfolio.getPortfolios({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false }, { caller: h.stranger })).portfolios, []);

      const { positions } = await h.portfolio.getPortfolioPositions({ portfolioIdentifier: 'green-core' }, me());
      assert.deepEqual(positions.map((p) => [p.positionId, p.positionAmount, p.positionCurrencyCode, p.positionDays, p.assetIdentifier, p.issuerIdentifier]), [
        [ids['a'], 100_000, 'SEK', 365, 'PUB-1', 'ISSUER-A'],
        [ids['b'], 5_000, 'EUR', 90, 'PUB-2', 'ISSUER-B'],
        [ids['d'], 1_000, 'EUR', 365, 'PUB-1', 'ISSUER-A'],
      ]);
      assert.equal(positions[1]!.positionStartDate, '2024-02-01');
      await rejectsWith(h.portfolio.getPortfolioPositions({ portfolioIdentifier: 'green-core' }, { caller: h.stranger }), 'NOT_FOUND', 'No such portfolio "green-core".');
    });

    it('removes positions from portfolios and portfolios without their positions', async () => {
      const from = (positionId: number) =>
        h.portfolio.removePositionFromPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'green-core', positionId }, me());
      assert.equal((await from(ids['d']!)).message, 'Position removed from portfolio.');
      await rejectsWith(from(ids['d']!), 'NOT_FOUND', `Position ${ids['d']} is not in portfolio "green-core".`);
      // Removing a position takes it out of its portfolios.
      await rejectsWith(h.portfolio.removePosition({ investorIdentifier: 'inv-2', positionId: ids['b']! }, me()), 'NOT_FOUND',
        `No position ${ids['b']} of investor "inv-2".`);
      assert.deepEqual(await h.portfolio.removePosition({ investorIdentifier: 'inv-1', positionId: ids['b']! }, me()), { message: 'Position removed.', id: ids['b'] });
      const positions = (await h.portfolio.getPortfolioPositions({ portfolioIdentifier: 'green-core' }, me())).positions;
      assert.deepEqual(positions.map((p) => p.positionId), [ids['a']]);

      assert.equal((await h.portfolio.removePortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'green-core' }, me())).message, 'Portfolio removed.');
      await rejectsWith(h.portfolio.removePortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'green-core' }, me()), 'NOT_FOUND');
      assert.equal((await h.portfolio.getPositionsByIds({ positionIds: [ids['a']!] }, me())).positions.length, 1);
    });

    it('removes an investor with its positions and portfolios', async () => {
      const removed = await h.portfolio.removeInvestor({ investorIdentifier: 'inv-2' }, me());
      assert.equal(removed.investorIdentifier, 'inv-2');
      assert.deepEqual((await h.portfolio.getPositionsByIds({ positionIds: [ids['c']!] }, me())).positions, []);
      const [{ n }] = await h.service.dataSource.query(
        `SELECT count(*)::int AS n FROM portfolio.portfolios WHERE portfolio_identifier = 'second'`,
      );
      assert.equal(n, 0);
      // The identifier is free again.
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-2', investorName: 'Reborn', investorCurrencyCode: 'EUR' }, me());
      assert.deepEqual((await h.portfolio.getPositions({ investorIdentifier: 'inv-2', investorIdentifiersAllowed: [], investorFilterActive: false }, me())).positions, []);
    });
  });
}
