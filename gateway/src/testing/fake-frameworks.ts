import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { FailedPreconditionError, NotFoundError } from '@green-impact/shared/errors';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { renderFakeDocument } from './fake-documents.js';
import { fakeOwnedStore, q, toProto, vis, type FakeFrameworkDeps, type FakeOwnedStore } from './fake-owned.js';
import { fakeProjectHandlers } from './fake-projects.js';
import { fakeServicePage } from './fake-paging.js';

export type { FakeFrameworkDeps, FakeRowNames } from './fake-owned.js';

/**
 * The frameworks and projects methods of the fake TaxonomyService (fake-taxonomy.ts): in memory, with
 * the service's ownership rules (fake-owned.ts) and message texts
 * (services/taxonomy/src/frameworks/messages.ts), and a plain-sum build (fake-projects.ts). Only as
 * faithful as the gateway's tests need: the real rules are tested in the taxonomy service and test/.
 */
export function fakeFrameworkHandlers(deps: FakeFrameworkDeps): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  const store = fakeOwnedStore(deps);
  return { ...frameworkHandlers(store, deps), ...fakeProjectHandlers(store, deps) };
}

function frameworkHandlers(store: FakeOwnedStore, deps: FakeFrameworkDeps): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  const { frameworks, projects, visible, read, own, frameworkSummary, rowsOf, putRow, removeRow, removeSubCategory, addOwned } = store;
  return {
    async getFrameworks(req, ctx) {
      const c = deps.record('getFrameworks', req, ctx);
      const list = visible(frameworks, c, vis(req.frameworkVisibility));
      if (req.pageSize === undefined) return { frameworks: list.map((f) => frameworkSummary(f, c, req.reportingYear)), nextPageToken: '' };
      const page = fakeServicePage(list, req);
      return { frameworks: page.items.map((f) => frameworkSummary(f, c, req.reportingYear)), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async getFrameworkDetails(req, ctx) {
      const c = deps.record('getFrameworkDetails', req, ctx);
      const lang = deps.language(req.languageCode);
      const f = read(frameworks, 'framework', c, req.frameworkIdentifier);
      const framework = rowsOf(f, req.reportingYear, lang).map((r) => ({ ...r, frameworkCurrencyCode: f.currency }));
      return { frameworks: [{ frameworkSummary: frameworkSummary(f, c, req.reportingYear), framework }] };
    },
    async renderFrameworkDocument(req, ctx) {
      const c = deps.record('renderFrameworkDocument', req, ctx);
      const f = read(frameworks, 'framework', c, req.frameworkIdentifier);
      const data = {
        document: 'framework',
        framework_identifier: f.identifier,
        reporting_year: req.reportingYear,
        language_code: req.languageCode ?? null,
        decimals: req.decimals ?? 2,
        rows: rowsOf(f, req.reportingYear, deps.language(req.languageCode)).map((r) => [r.subCategoryId, r.indicatorId, r.subCategoryVolume, r.indicatorValue]),
      };
      return { ...renderFakeDocument(req.format, f.name, data), frameworkId: f.id, frameworkIdentifier: f.identifier, frameworkVisibility: toProto(f.visibility) };
    },
    async getFrameworksByIdentifiers(req, ctx) {
      const c = deps.record('getFrameworksByIdentifiers', req, ctx);
      const found = req.frameworkIdentifiers.flatMap((identifier) => {
        try {
          return [read(frameworks, 'framework', c, identifier)];
        } catch {
          return [];
        }
      });
      return { frameworks: [...new Set(found)].map((f) => frameworkSummary(f, c, req.reportingYear ?? 0)) };
    },
    async addFramework(req, ctx) {
      const c = deps.record('addFramework', req, ctx);
      deps.currency(req.frameworkCurrencyCode);
      return addOwned(
        frameworks,
        'framework',
        c,
        req.frameworkIdentifier,
        (f) => {
          f.name = req.frameworkName;
          f.currency = req.frameworkCurrencyCode;
          f.visibility = vis(req.frameworkVisibility) ?? f.visibility;
        },
        () => ({
          id: store.newId(),
          account: c.accountId,
          identifier: req.frameworkIdentifier,
          name: req.frameworkName,
          currency: req.frameworkCurrencyCode,
          visibility: vis(req.frameworkVisibility) ?? 'private',
          rows: [],
          years: new Map(),
        }),
      );
    },
    async addYearSpecificsToFramework(req, ctx) {
      const c = deps.record('addYearSpecificsToFramework', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      const had = f.years.has(req.reportingYear);
      f.years.set(req.reportingYear, { v: req.valueOutstanding, l: req.allocatedAmount, flag: req.valueOutstandingFramework });
      const y = req.reportingYear;
      return { message: had ? `Year specifics for ${y} of framework updated.` : `Year specifics for ${y} added to framework.`, id: f.id };
    },
    async addCategoryIndicatorToFramework(req, ctx) {
      const c = deps.record('addCategoryIndicatorToFramework', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      const { subCategoryId, indicatorId, reportingYear: year } = req;
      return putRow(f, 'framework', { subCategoryId, indicatorId, year, volume: req.subCategoryVolume, value: req.indicatorValue });
    },
    async removeIndicatorFromFramework(req, ctx) {
      const c = deps.record('removeIndicatorFromFramework', req, ctx);
      return removeRow(own(frameworks, 'framework', c, req.frameworkIdentifier), 'framework', req.subCategoryId, req.indicatorId, req.reportingYear);
    },
    async removeCategoryFromFramework(req, ctx) {
      const c = deps.record('removeCategoryFromFramework', req, ctx);
      return removeSubCategory(own(frameworks, 'framework', c, req.frameworkIdentifier), 'framework', req.subCategoryId, req.reportingYear);
    },
    async removeFrameworkYearSpecifics(req, ctx) {
      const c = deps.record('removeFrameworkYearSpecifics', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      if (!f.years.delete(req.reportingYear)) {
        throw new NotFoundError(`Framework ${q(f.identifier)} has no year specifics for ${req.reportingYear}.`);
      }
      return { message: `Year specifics for ${req.reportingYear} removed from framework.`, id: f.id };
    },
    async removeFramework(req, ctx) {
      const c = deps.record('removeFramework', req, ctx);
      const f = own(frameworks, 'framework', c, req.frameworkIdentifier);
      const users = projects.filter((p) => p.frameworkId === f.id);
      if (users.length) {
        throw new FailedPreconditionError(
          `Framework ${q(f.identifier)} is still used by ${users.length === 1 ? 'project' : 'projects'} ${users.map((p) => q(p.identifier)).join(', ')}; remove those first.`,
        );
      }
      frameworks.splice(frameworks.indexOf(f), 1);
      return { message: 'Framework removed.', id: f.id };
    },
  };
}
