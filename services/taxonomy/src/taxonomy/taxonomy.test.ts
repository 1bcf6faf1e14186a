import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';

const Y = 2024;

for (const db of testDatabases) {
  describe(`taxonomy over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    const op = () => ({ caller: h.operator });
    const count = async (sql: string, params: unknown[]) => Number((await h.service.dataSource.query(sql, params))[0].n);

    before(async () => {
      h = await startTaxonomyHarness(db);
    });
    after(async () => {
      await h?.stop();
    });

    it('serves the seeded languages, SDGs and EU objectives, translated with fallback', async () => {
      const { languages } = await h.client.getLanguages({}, { caller: h.user });
      assert.equal(languages.length, 41);
      const byCode = new Map(languages.map((l) => [l.languageCode, l.language]));
      assert.equal(byCode.get('en'), 'English');
      assert.equal(byCode.get('sv'), 'Swedish');
      assert.equal(byCode.get('dk'), 'Danish');
      assert.equal(byCode.get('nb'), 'Norwegian Bokmål');
      assert.equal(byCode.get('en-AU'), 'English (Australia)');
      assert.equal(byCode.get('nl-NL'), 'Dutch (Netherlands)');
      assert.deepEqual(languages.slice(0, 3).map((l) => l.id), [1, 2, 3]);

      const { sdgs } = await h.client.getSdgs({}, { caller: h.user });
      assert.equal(sdgs.length, 17);
      assert.deepEqual(sdgs[6], { sdgId: 7, goalNo: '7', sdg: 'Affordable and Clean Energy', language: 'English', languageCode: 'en' });
      assert.equal(sdgs[16]!.sdg, 'Partnerships for the Goals');
      const { euObjectives } = await h.client.getEuObjectives({}, { caller: h.user });
      assert.deepEqual(
        euObjectives.map((e) => [e.euObjectivId, e.objective]),
        [
          [1, 'Climate change mitigation'],
          [2, 'Climate change adaptation'],
          [3, 'Sustainable use and protection of water and marine resources'],
          [4, 'Transition to a circular economy'],
          [5, 'Pollution prevention and control'],
          [6, 'Protection and restoration of biodiversity and ecosystems'],
        ],
      );
      const sv = (await h.client.getSdgs({ languageCode: 'sv' }, { caller: h.user })).sdgs[6]!;
      assert.deepEqual([sv.sdg, sv.language, sv.languageCode], ['Hållbar energi för alla', 'Swedish', 'sv']);
      // No German names: each falls back to the original, and says so.
      const de = (await h.client.getEuObjectives({ languageCode: 'de' }, { caller: h.user })).euObjectives[0]!;
      assert.deepEqual([de.objective, de.language, de.languageCode], ['Climate change mitigation', 'English', 'en']);
      await rejectsWith(h.client.getSdgs({ languageCode: 'xx' }, { caller: h.user }), 'INVALID_ARGUMENT', 'Unknown language code xx.');
    });

    let categoryId = 0;
    let subCategoryId = 0;
    let unitId = 0;
    let superIndicatorId = 0;
    let indicatorId = 0;

    it('adds a category (message ends with the id), renames it, and never makes a second row', async () => {
      const added = await h.client.addCategory({ categoryName: 'Energy', reportingYear: Y, languageCode: 'en' }, op());
      categoryId = added.id!;
      assert.equal(added.message, `Category added with id ${categoryId}.`);
      const again = await h.client.addCategory({ categoryName: 'energy ', reportingYear: Y, languageCode: 'en' }, op());
      assert.deepEqual(again, { message: `Category already exists with id ${categoryId}.`, id: categoryId });
      const renamed = await h.client.addCategory(
        { categoryName: 'Energy', categoryNameChanged: 'Renewable energy', reportingYear: Y, languageCode: 'en' },
        op(),
      );
      assert.deepEqual(renamed, { message: 'Category changed.', id: categoryId });
      const { categories } = await h.client.getCategories({ reportingYear: Y }, { caller: h.user });
      assert.deepEqual(categories, [
        { categoryId, categoryName: 'Renewable energy', language: 'English', languageCode: 'en', reportingYear: Y },
      ]);
      await rejectsWith(
        h.client.addCategory({ categoryName: 'Energy', categoryNameChanged: 'X', reportingYear: Y, languageCode: 'en' }, op()),
        'NOT_FOUND',
        'No category named "Energy" in 2024.',
      );
      const other = (await h.client.addCategory({ categoryName: 'Green buildings', reportingYear: Y, languageCode: 'en' }, op())).id!;
      await rejectsWith(
        h.client.addCategory({ categoryName: 'Green buildings', categoryNameChanged: 'renewable ENERGY', reportingYear: Y, languageCode: 'en' }, op()),
        'ALREADY_EXISTS',
        `A category named "renewable ENERGY" already exists in 2024 (id ${categoryId}).`,
      );
      await h.client.removeCategory({ categoryId: other, reportingYear: Y }, op());
      // The same name in another year is another category.
      const y2023 = await h.client.addCategory({ categoryName: 'Renewable energy', reportingYear: 2023, languageCode: 'en' }, op());
      assert.notEqual(y2023.id, categoryId);
      assert.equal((await h.client.getCategories({ reportingYear: 2023 }, op())).categories.length, 1);
      assert.equal(await count(`SELECT count(*) AS n FROM taxonomy.categories WHERE reporting_year = $1`, [Y]), 1);
      // Concurrent adds of one name end with one row, every caller answered its id.
      const burst = await Promise.all(Array.from({ length: 6 }, () => h.client.addUnit({ unitName: 'GJ/year', reportingYear: 2023 }, op())));
      assert.equal(new Set(burst.map((r) => r.id)).size, 1);
      assert.equal(burst.filter((r) => r.message.startsWith('Unit added')).length, 1);
      assert.equal(await count(`SELECT count(*) AS n FROM taxonomy.units WHERE reporting_year = $1`, [2023]), 1);
    });

    it('adds a sub category and links SDG 7 and EU objective 1', async () => {
      const added = await h.client.addSubCategory({ subCategoryName: 'Solar', categoryId, reportingYear: Y, languageCode: 'en' }, op());
      subCategoryId = added.id!;
      assert.equal(added.message, `Sub category added with id ${subCategoryId}.`);
      const again = await h.client.addSubCategory({ subCategoryName: 'SOLAR', categoryId, reportingYear: Y, languageCode: 'en' }, op());
      assert.equal(again.id, subCategoryId);
      const linked = await h.client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: Y, sdgId: 7, euObjectiveId: 1 }, op());
      assert.deepEqual(linked, { message: `SDG 7 and EU objective 1 added to sub category ${subCategoryId}.`, id: subCategoryId });
      await h.client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: Y, sdgId: 7 }, op()); // linking twice is harmless
      const { subCategories } = await h.client.getSubCategories({ reportingYear: Y }, { caller: h.user });
      assert.deepEqual(subCategories, [
        {
          subCategoryId,
          subCategoryName: 'Solar',
          categoryId,
          categoryName: 'Renewable energy',
          sdg: { '7': 'Affordable and Clean Energy' },
          euObjective: { '1': 'Climate change mitigation' },
          language: 'English',
          languageCode: 'en',
          reportingYear: Y,
        },
      ]);
      const renamed = await h.client.addSubCategory(
        { subCategoryName: 'Solar', subCategoryNameChanged: 'Solar power', categoryId, reportingYear: Y, languageCode: 'en' },
        op(),
      );
      assert.deepEqual(renamed, { message: 'Sub category changed.', id: subCategoryId });
      await rejectsWith(
        h.client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: Y, sdgId: 18 }, op()),
        'NOT_FOUND',
        'No such SDG 18; SDGs are numbered 1 to 17.',
      );
      await rejectsWith(h.client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: Y, euObjectiveId: 7 }, op()), 'NOT_FOUND');
      await rejectsWith(h.client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: Y }, op()), 'INVALID_ARGUMENT');
    });

    it('adds unit, super indicator and indicator with messages ending in the new id', async () => {
      const unit = await h.client.addUnit({ unitName: 'MWh/year', reportingYear: Y }, op());
      unitId = unit.id!;
      assert.equal(unit.message, `Unit added with id ${unitId}.`);
      const si = await h.client.addSuperIndicator({ superIndicatorName: 'Energy generation', categoryId, reportingYear: Y }, op());
      superIndicatorId = si.id!;
      assert.equal(si.message, `Super indicator added with id ${superIndicatorId}.`);
      const ind = await h.client.addIndicator(
        { indicatorName: 'Annual renewable energy generation', superIndicatorId, unitId, reportingYear: Y },
        op(),
      );
      indicatorId = ind.id!;
      assert.equal(ind.message, `Indicator added with id ${indicatorId}.`);
      assert.equal((await h.client.addUnit({ unitName: 'mwh/YEAR', reportingYear: Y }, op())).id, unitId);
      assert.equal((await h.client.addSuperIndicator({ superIndicatorName: 'Energy generation', categoryId, reportingYear: Y }, op())).message,
        `Super indicator already exists with id ${superIndicatorId}.`);
      assert.equal((await h.client.addIndicator({ indicatorName: 'Annual renewable energy generation', superIndicatorId, reportingYear: Y }, op())).id,
        indicatorId);
      for (const [table, n] of [['units', 1], ['super_indicators', 1], ['super_indicator_categories', 1], ['indicators', 1], ['sub_categories', 1]] as const) {
        assert.equal(await count(`SELECT count(*) AS n FROM taxonomy.${table} WHERE reporting_year = $1`, [Y]), n, table);
      }
      const { indicators } = await h.client.getIndicators({ reportingYear: Y }, { caller: h.user });
      assert.deepEqual(indicators, [{
        indicatorId, indicatorName: 'Annual renewable energy generation', superIndicatorId, superIndicatorName: 'Energy generation',
        unitId, unitName: 'MWh/year', language: 'English', languageCode: 'en', reportingYear: Y,
      }]);
      const { rows } = await h.client.getTaxonomy({ reportingYear: Y }, { caller: h.user });
      assert.equal(rows.length, 1);
      assert.deepEqual(
        [rows[0]!.categoryName, rows[0]!.subCategoryName, rows[0]!.superIndicatorName, rows[0]!.indicatorName, rows[0]!.unitName, rows[0]!.sdg],
        ['Renewable energy', 'Solar power', 'Energy generation', 'Annual renewable energy generation', 'MWh/year', { '7': 'Affordable and Clean Energy' }],
      );
      await rejectsWith(
        h.client.addIndicator({ indicatorName: 'Capacity', superIndicatorId, reportingYear: Y }, op()),
        'INVALID_ARGUMENT',
        'unit_id is required to add an indicator.',
      );
    });

    it('links one super indicator to several categories, moves and unlinks it', async () => {
      const buildings = (await h.client.addCategory({ categoryName: 'Green buildings', reportingYear: Y, languageCode: 'en' }, op())).id!;
      const transport = (await h.client.addCategory({ categoryName: 'Clean transportation', reportingYear: Y, languageCode: 'en' }, op())).id!;
      const linked = await h.client.addSuperIndicator({ superIndicatorName: 'energy generation', categoryId: buildings, reportingYear: Y }, op());
      assert.deepEqual(linked, { message: `Super indicator added to category ${buildings} with id ${superIndicatorId}.`, id: superIndicatorId });
      const list = async () =>
        (await h.client.getSuperIndicators({ reportingYear: Y }, op())).superIndicators.map((s) => [s.superIndicatorId, s.categoryId]);
      assert.deepEqual(await list(), [[superIndicatorId, categoryId], [superIndicatorId, buildings]]);
      const moved = await h.client.addSuperIndicator(
        { superIndicatorName: 'Energy generation', categoryId: buildings, categoryIdChanged: transport, reportingYear: Y },
        op(),
      );
      assert.equal(moved.message, 'Super indicator changed.');
      assert.deepEqual(await list(), [[superIndicatorId, categoryId], [superIndicatorId, transport]]);
      const unlinked = await h.client.removeSuperIndicator({ superIndicatorId, categoryId: transport, reportingYear: Y }, op());
      assert.equal(unlinked.message, `Super indicator removed from category ${transport}.`);
      assert.deepEqual(await list(), [[superIndicatorId, categoryId]]);
      await rejectsWith(
        h.client.removeSuperIndicator({ superIndicatorId, categoryId: transport, reportingYear: Y }, op()),
        'NOT_FOUND',
        `Super indicator ${superIndicatorId} is not in category ${transport}.`,
      );
      await h.client.removeCategory({ categoryId: buildings, reportingYear: Y }, op());
      await h.client.removeCategory({ categoryId: transport, reportingYear: Y }, op());
    });

    it('translates to sv, reads back in sv, and falls back for what is untranslated', async () => {
      const t = { reportingYear: Y, languageCode: 'sv' };
      assert.equal((await h.client.addCategoryTranslation({ ...t, categoryId, translation: 'Förnybar energi' }, op())).message, 'category translation added');
      assert.equal((await h.client.addSubCategoryTranslation({ ...t, subCategoryId, translation: 'Solkraft' }, op())).message, 'sub category translation changed');
      assert.equal((await h.client.addSuperIndicatorTranslation({ ...t, superIndicatorId, translation: 'Energiproduktion' }, op())).message, 'super indicator translation added');
      assert.equal((await h.client.addIndicatorTranslation({ ...t, indicatorId, translation: 'Årlig produktion' }, op())).message, 'indicator translation added');
      const unitT = await h.client.addUnitTranslation({ ...t, unitId, translation: 'MWh/år (fel)' }, op());
      assert.deepEqual(unitT, { message: 'unit translation changed', id: unitId });
      await h.client.addUnitTranslation({ ...t, unitId, translation: 'MWh/år' }, op()); // replaces, one row
      assert.equal(await count(`SELECT count(*) AS n FROM taxonomy.unit_translations WHERE unit_id = $1`, [unitId]), 1);

      const [cat] = (await h.client.getCategories({ reportingYear: Y, languageCode: 'sv' }, op())).categories;
      assert.deepEqual([cat!.categoryName, cat!.language, cat!.languageCode], ['Förnybar energi', 'Swedish', 'sv']);
      const [sub] = (await h.client.getSubCategories({ reportingYear: Y, languageCode: 'SV' }, op())).subCategories;
      assert.deepEqual([sub!.subCategoryName, sub!.categoryName, sub!.sdg, sub!.euObjective['1']],
        ['Solkraft', 'Förnybar energi', { '7': 'Hållbar energi för alla' }, 'Begränsning av klimatförändringar']);
      const [row] = (await h.client.getTaxonomy({ reportingYear: Y, languageCode: 'sv' }, op())).rows;
      assert.deepEqual([row!.indicatorName, row!.unitName, row!.superIndicatorName, row!.language], ['Årlig produktion', 'MWh/år', 'Energiproduktion', 'Swedish']);
      // Finnish: nothing translated, every name in its original language.
      const [fi] = (await h.client.getIndicators({ reportingYear: Y, languageCode: 'fi' }, op())).indicators;
      assert.deepEqual([fi!.indicatorName, fi!.language, fi!.languageCode], ['Annual renewable energy generation', 'English', 'en']);
      // A second unit without a Swedish name falls back beside a translated one.
      const tonnes = (await h.client.addUnit({ unitName: 't/year', reportingYear: Y }, op())).id!;
      const units = (await h.client.getUnits({ reportingYear: Y, languageCode: 'sv' }, op())).units.map((u) => [u.unitName, u.language]);
      assert.deepEqual(units, [['MWh/år', 'Swedish'], ['t/year', 'English']]);
      await h.client.removeUnit({ unitId: tonnes, reportingYear: Y }, op());

      await rejectsWith(h.client.addCategoryTranslation({ ...t, languageCode: 'xx', categoryId, translation: 'x' }, op()), 'INVALID_ARGUMENT', 'Unknown language code xx.');
      await rejectsWith(h.client.addCategoryTranslation({ ...t, languageCode: 'en', categoryId, translation: 'x' }, op()), 'INVALID_ARGUMENT',
        `Category ${categoryId} is in English already; change its name with addCategory (category_name_changed) instead.`);
      await rejectsWith(h.client.addCategoryTranslation({ ...t, categoryId: 99999, translation: 'x' }, op()), 'NOT_FOUND', 'No such category 99999 in 2024.');
      await rejectsWith(h.client.addCategoryTranslation({ ...t, categoryId, translation: ' ' }, op()), 'INVALID_ARGUMENT');
    });

    it('lets only operators change anything, and anyone with a caller read', async () => {
      const u = { caller: h.user };
      const denied = [
        h.client.addCategory({ categoryName: 'X', reportingYear: Y, languageCode: 'en' }, u),
        h.client.addSubCategory({ subCategoryName: 'X', categoryId, reportingYear: Y, languageCode: 'en' }, u),
        h.client.addUnit({ unitName: 'X', reportingYear: Y }, u),
        h.client.addSuperIndicator({ superIndicatorName: 'X', categoryId, reportingYear: Y }, u),
        h.client.addIndicator({ indicatorName: 'X', superIndicatorId, unitId, reportingYear: Y }, u),
        h.client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: Y, sdgId: 1 }, u),
        h.client.addCategoryTranslation({ categoryId, reportingYear: Y, languageCode: 'sv', translation: 'X' }, u),
        h.client.addUnitTranslation({ unitId, reportingYear: Y, languageCode: 'sv', translation: 'X' }, u),
        h.client.removeCategory({ categoryId, reportingYear: Y }, u),
        h.client.removeSubCategory({ subCategoryId, reportingYear: Y }, u),
        h.client.removeSuperIndicator({ superIndicatorId, reportingYear: Y }, u),
        h.client.removeIndicator({ indicatorId, reportingYear: Y }, u),
        h.client.removeUnit({ unitId, reportingYear: Y }, u),
        h.client.removeGoalObjectiveFromSubCategory({ subCategoryId, reportingYear: Y, sdgId: 7 }, u),
      ];
      for (const call of denied) await rejectsWith(call, 'PERMISSION_DENIED', 'Not authorized.');
      assert.equal((await h.client.getTaxonomy({ reportingYear: Y }, u)).rows.length, 1);
      await rejectsWith(h.client.getCategories({ reportingYear: Y }), 'UNAUTHENTICATED');
    });

    it('validates years, names, languages and ids', async () => {
      await rejectsWith(h.client.getCategories({ reportingYear: 24 }, op()), 'INVALID_ARGUMENT', 'reporting_year must be a 4-digit year from 1900 to 2200, got 24.');
      await rejectsWith(h.client.addCategory({ categoryName: '', reportingYear: Y, languageCode: 'en' }, op()), 'INVALID_ARGUMENT', 'category_name must be 1 to 255 characters.');
      await rejectsWith(h.client.addUnit({ unitName: 'u'.repeat(256), reportingYear: Y }, op()), 'INVALID_ARGUMENT');
      await rejectsWith(h.client.addCategory({ categoryName: 'X', reportingYear: Y, languageCode: 'xx' }, op()), 'INVALID_ARGUMENT', 'Unknown language code xx.');
      await rejectsWith(h.client.addCategory({ categoryName: 'X', reportingYear: Y, languageCode: '' }, op()), 'INVALID_ARGUMENT', 'language_code is required.');
      await rejectsWith(h.client.addSubCategory({ subCategoryName: 'X', categoryId: 12345, reportingYear: Y, languageCode: 'en' }, op()), 'NOT_FOUND', 'No such category 12345 in 2024.');
      // An item of another year is not found in this one.
      await rejectsWith(h.client.addSubCategory({ subCategoryName: 'X', categoryId, reportingYear: 2023, languageCode: 'en' }, op()), 'NOT_FOUND', `No such category ${categoryId} in 2023.`);
      await rejectsWith(h.client.addIndicator({ indicatorName: 'X', superIndicatorId, unitId: 999, reportingYear: Y }, op()), 'NOT_FOUND', 'No such unit 999 in 2024.');
      await rejectsWith(h.client.removeIndicator({ indicatorId: 0, reportingYear: Y }, op()), 'INVALID_ARGUMENT', 'indicator_id must be a positive integer.');
    });

    it('refuses removals while children use an item, then removes with translations', async () => {
      await rejectsWith(h.client.removeUnit({ unitId, reportingYear: Y }, op()), 'FAILED_PRECONDITION',
        `Unit ${unitId} is still used by indicator ${indicatorId}; remove those or give them another unit first.`);
      await rejectsWith(h.client.removeCategory({ categoryId, reportingYear: Y }, op()), 'FAILED_PRECONDITION',
        `Category ${categoryId} is still used by sub category ${subCategoryId} and super indicator ${superIndicatorId}; remove those first.`);
      await rejectsWith(h.client.removeSuperIndicator({ superIndicatorId, reportingYear: Y }, op()), 'FAILED_PRECONDITION',
        `Super indicator ${superIndicatorId} is still used by indicator ${indicatorId}; remove those first.`);

      const goals = await h.client.removeGoalObjectiveFromSubCategory({ subCategoryId, reportingYear: Y, sdgId: 7 }, op());
      assert.equal(goals.message, `SDG 7 removed from sub category ${subCategoryId}.`);
      await rejectsWith(h.client.removeGoalObjectiveFromSubCategory({ subCategoryId, reportingYear: Y, sdgId: 7 }, op()), 'NOT_FOUND',
        `SDG 7 is not linked to sub category ${subCategoryId}.`);

      assert.equal((await h.client.removeIndicator({ indicatorId, reportingYear: Y }, op())).message, 'Indicator removed.');
      assert.equal((await h.client.removeUnit({ unitId, reportingYear: Y }, op())).message, 'Unit removed.');
      assert.equal((await h.client.removeSuperIndicator({ superIndicatorId, reportingYear: Y }, op())).message, 'Super indicator removed.');
      assert.equal((await h.client.removeSubCategory({ subCategoryId, reportingYear: Y }, op())).message, 'Sub category removed.');
      assert.equal((await h.client.removeCategory({ categoryId, reportingYear: Y }, op())).message, 'Category removed.');
      await rejectsWith(h.client.removeCategory({ categoryId, reportingYear: Y }, op()), 'NOT_FOUND', `No such category ${categoryId} in 2024.`);

      for (const table of ['category', 'sub_category', 'super_indicator', 'indicator', 'unit']) {
        assert.equal(await count(`SELECT count(*) AS n FROM taxonomy.${table}_translations`, []), 0, `${table} translations`);
      }
      assert.equal(await count(`SELECT count(*) AS n FROM taxonomy.sub_category_eu_objectives`, []), 0);
      assert.equal((await h.client.getTaxonomy({ reportingYear: Y }, op())).rows.length, 0);
      // A new category of the old name starts without the old translation.
      const again = await h.client.addCategory({ categoryName: 'Renewable energy', reportingYear: Y, languageCode: 'en' }, op());
      const [cat] = (await h.client.getCategories({ reportingYear: Y, languageCode: 'sv' }, op())).categories;
      assert.deepEqual([cat!.categoryId, cat!.categoryName, cat!.language], [again.id, 'Renewable energy', 'English']);
    });
  });
}
