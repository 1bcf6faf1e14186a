import type { Caller } from '@green-impact/shared/caller';
import { DomainError } from '@green-impact/shared/errors';
import type { TaxonomyClient } from '@green-impact/shared/clients/taxonomy-client';
import type { ExampleItem, ExampleTaxonomy } from './icma-taxonomy.js';

export interface LoadSummary {
  reportingYear: number;
  categories: number;
  subCategories: number;
  superIndicators: number;
  indicators: number;
  units: number;
  taxonomyRows: number;
  fxRates: number;
  /** False when the year's taxonomy, its Swedish reading and its FX rates were the same before. */
  changed: boolean;
}

type Translate = (languageCode: string, translation: string) => Promise<unknown>;

/**
 * Loads an example taxonomy through the TaxonomyService API, as an operator, so every rule of the
 * service applies. Idempotent: every add finds what an earlier run added (same names, same ids),
 * translations are upserts, and FX rates are only written when they differ.
 */
export async function loadExample(client: TaxonomyClient, caller: Caller, example: ExampleTaxonomy): Promise<LoadSummary> {
  const opts = { caller };
  const year = example.reportingYear;
  const languageCode = example.languageCode;
  const before = await snapshot(client, caller, year);
  const translate = async (item: ExampleItem, add: Translate) => {
    for (const [language, text] of Object.entries(item.translations ?? {})) await add(language, text);
  };

  const units = new Map<string, number>();
  for (const u of example.units) {
    const unitId = (await client.addUnit({ unitName: u.name, reportingYear: year, languageCode }, opts)).id!;
    units.set(u.name, unitId);
    await translate(u, (l, t) => client.addUnitTranslation({ unitId, reportingYear: year, languageCode: l, translation: t }, opts));
  }

  const categories = new Map<string, number>();
  for (const c of example.categories) {
    const categoryId = (await client.addCategory({ categoryName: c.name, reportingYear: year, languageCode }, opts)).id!;
    categories.set(c.name, categoryId);
    await translate(c, (l, t) => client.addCategoryTranslation({ categoryId, reportingYear: year, languageCode: l, translation: t }, opts));
    for (const s of c.subCategories) {
      const subCategoryId = (await client.addSubCategory({ subCategoryName: s.name, categoryId, reportingYear: year, languageCode }, opts)).id!;
      await translate(s, (l, t) =>
        client.addSubCategoryTranslation({ subCategoryId, reportingYear: year, languageCode: l, translation: t }, opts),
      );
      for (const sdgId of s.sdgs) await client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: year, sdgId }, opts);
      for (const euObjectiveId of s.euObjectives) {
        await client.addGoalObjectiveToSubCategory({ subCategoryId, reportingYear: year, euObjectiveId }, opts);
      }
    }
  }

  for (const si of example.superIndicators) {
    let superIndicatorId = 0;
    for (const category of si.categories) {
      const categoryId = required(categories, category, 'category');
      superIndicatorId = (await client.addSuperIndicator({ superIndicatorName: si.name, categoryId, reportingYear: year, languageCode }, opts)).id!;
    }
    await translate(si, (l, t) =>
      client.addSuperIndicatorTranslation({ superIndicatorId, reportingYear: year, languageCode: l, translation: t }, opts),
    );
    for (const i of si.indicators) {
      const unitId = required(units, i.unit, 'unit');
      const indicatorId = (await client.addIndicator({ indicatorName: i.name, superIndicatorId, unitId, reportingYear: year, languageCode }, opts)).id!;
      await translate(i, (l, t) => client.addIndicatorTranslation({ indicatorId, reportingYear: year, languageCode: l, translation: t }, opts));
    }
  }

  for (const fx of example.fxRates) {
    const current = await client
      .getFxRate({ reportingYear: year, numeratorCurrencyCode: fx.numerator, denominatorCurrencyCode: fx.denominator }, opts)
      .catch((err: unknown) => (err instanceof DomainError && err.code === 'NOT_FOUND' ? undefined : Promise.reject(err)));
    if (current?.fxRate?.derived === false && current.fxRate.fxRate === fx.rate) continue;
    await client.addFxRate(
      { currencyCodeNumerator: fx.numerator, currencyCodeDenominator: fx.denominator, currencyCodeQuota: fx.rate, reportingYear: year },
      opts,
    );
  }

  const after = await snapshot(client, caller, year);
  return { reportingYear: year, ...after.counts, changed: JSON.stringify(before) !== JSON.stringify(after) };
}

/** Everything a load can change for the year, in the original language and in Swedish. */
async function snapshot(client: TaxonomyClient, caller: Caller, reportingYear: number) {
  const opts = { caller };
  const read = async (languageCode?: string) => {
    const req = { reportingYear, ...(languageCode ? { languageCode } : {}) };
    return {
      categories: (await client.getCategories(req, opts)).categories,
      subCategories: (await client.getSubCategories(req, opts)).subCategories,
      superIndicators: (await client.getSuperIndicators(req, opts)).superIndicators,
      indicators: (await client.getIndicators(req, opts)).indicators,
      units: (await client.getUnits(req, opts)).units,
      rows: (await client.getTaxonomy(req, opts)).rows,
    };
  };
  const original = await read();
  const swedish = await read('sv');
  const fxRates = (await client.getFxRates({ reportingYear }, opts)).fxRates;
  return {
    original,
    swedish,
    fxRates,
    counts: {
      categories: original.categories.length,
      subCategories: original.subCategories.length,
      superIndicators: new Set(original.superIndicators.map((s) => s.superIndicatorId)).size,
      indicators: original.indicators.length,
      units: original.units.length,
      taxonomyRows: original.rows.length,
      fxRates: fxRates.filter((r) => !r.derived).length,
    },
  };
}

function required(ids: Map<string, number>, name: string, what: string): number {
  const id = ids.get(name);
  if (id === undefined) throw new Error(`The example names ${what} "${name}" but does not define it.`);
  return id;
}
