import { UnitSignStore } from './taxonomy/unit-signs.js';
import { IcmaReporter } from './reports/icma-report.js';
import { EuGbsReporter } from './reports/eu-gbs/eu-gbs-report.js';
import { TaxonomyLayerStore } from './projects/taxonomy-layers.js';
import type { DataSource } from 'typeorm';
import { DEFAULT_LISTING_LIMITS, type ListingLimits } from '@green-impact/shared/config';
import { CurrencyStore } from './currencies/currencies.js';
import { FxRateStore } from './currencies/fx-rates.js';
import { FrameworkDocuments } from './documents/framework-documents.js';
import { FrameworkStore } from './frameworks/frameworks.js';
import { FrameworkHolderStore } from './frameworks/holders.js';
import { FRAMEWORK, PROJECT } from './frameworks/owned.js';
import { OwnedRowStore } from './frameworks/owned-rows.js';
import { FrameworkReader } from './frameworks/reads.js';
import { FrameworkBuilder } from './projects/build.js';
import { ProjectStore } from './projects/projects.js';
import { ProjectReader } from './projects/reads.js';
import { GoalReader } from './reference/goal-reader.js';
import { LanguageCatalog } from './reference/language-catalog.js';
import { CategoryStore } from './taxonomy/categories.js';
import { GoalLinkStore } from './taxonomy/goal-links.js';
import { IndicatorStore } from './taxonomy/indicators.js';
import { TaxonomyReader } from './taxonomy/reads.js';
import { SubCategoryStore } from './taxonomy/sub-categories.js';
import { SuperIndicatorStore } from './taxonomy/super-indicators.js';
import { TranslationStore } from './taxonomy/translations.js';
import { UnitStore } from './taxonomy/units.js';

/** Everything the handlers call: one store per kind of data, all on the service's data source. */
export interface TaxonomyStores {
  languages: LanguageCatalog;
  goals: GoalReader;
  reader: TaxonomyReader;
  categories: CategoryStore;
  subCategories: SubCategoryStore;
  units: UnitStore;
  unitSigns: UnitSignStore;
  superIndicators: SuperIndicatorStore;
  indicators: IndicatorStore;
  goalLinks: GoalLinkStore;
  translations: TranslationStore;
  currencies: CurrencyStore;
  fxRates: FxRateStore;
  frameworks: FrameworkStore;
  frameworkHolders: FrameworkHolderStore;
  frameworkRows: OwnedRowStore;
  frameworkReader: FrameworkReader;
  frameworkDocuments: FrameworkDocuments;
  projects: ProjectStore;
  projectRows: OwnedRowStore;
  projectReader: ProjectReader;
  frameworkBuilder: FrameworkBuilder;
  icmaReporter: IcmaReporter;
  taxonomyLayers: TaxonomyLayerStore;
  euGbsReporter: EuGbsReporter;
}

export async function createStores(ds: DataSource, limits: ListingLimits = DEFAULT_LISTING_LIMITS): Promise<TaxonomyStores> {
  const languages = await LanguageCatalog.load(ds);
  const frameworkReader = new FrameworkReader(ds, languages, limits.maxListItems);
  return {
    languages,
    goals: new GoalReader(ds, languages),
    reader: new TaxonomyReader(ds, languages),
    categories: new CategoryStore(ds, languages),
    subCategories: new SubCategoryStore(ds, languages),
    units: new UnitStore(ds, languages),
    unitSigns: new UnitSignStore(ds),
    superIndicators: new SuperIndicatorStore(ds, languages),
    indicators: new IndicatorStore(ds, languages),
    goalLinks: new GoalLinkStore(ds),
    translations: new TranslationStore(ds, languages),
    currencies: new CurrencyStore(ds),
    fxRates: new FxRateStore(ds),
    frameworks: new FrameworkStore(ds, limits.maxPublicItemsPerAccount),
    frameworkHolders: new FrameworkHolderStore(ds),
    frameworkRows: new OwnedRowStore(ds, FRAMEWORK),
    frameworkReader,
    frameworkDocuments: new FrameworkDocuments(frameworkReader, languages),
    projects: new ProjectStore(ds, limits.maxPublicItemsPerAccount),
    projectRows: new OwnedRowStore(ds, PROJECT),
    projectReader: new ProjectReader(ds, languages, limits.maxListItems),
    frameworkBuilder: new FrameworkBuilder(ds),
    icmaReporter: new IcmaReporter(ds, languages),
    taxonomyLayers: new TaxonomyLayerStore(ds),
    euGbsReporter: new EuGbsReporter(ds, languages),
  };
}
