import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { requireCaller } from '@green-impact/shared/caller';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { TaxonomyStores } from '../stores.js';

/** §4.6 frameworks, plus the portfolio service's reads and the framework document: thin translations to store calls. */
export function frameworkHandlers(s: TaxonomyStores): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  return {
    // ---- reads (own and public) ----
    async getFrameworks(req, ctx) {
      const caller = requireCaller(ctx.caller);
      // No page asked for: the whole list up to MAX_LIST_ITEMS, in identifier order (/v1/call's getFrameworks).
      if (req.pageSize === undefined) {
        const { frameworks, totalCount } = await s.frameworkReader.list(caller, req.reportingYear, req.frameworkVisibility);
        return { frameworks, nextPageToken: '', hasPreviousPage: false, itemPageTokens: [], ...(totalCount !== undefined ? { totalCount } : {}) };
      }
      const page = await s.frameworkReader.page(caller, req.reportingYear, req.frameworkVisibility, { size: req.pageSize, token: req.pageToken, before: req.pageBefore, order: req.pageOrder });
      return {
        frameworks: page.frameworks,
        nextPageToken: page.nextPageToken,
        totalCount: page.totalCount,
        hasPreviousPage: page.hasPreviousPage,
        itemPageTokens: page.itemPageTokens,
      };
    },
    async getFrameworkDetails(req, ctx) {
      const selector = { identifier: req.frameworkIdentifier, frameworkId: req.frameworkId };
      const detail = await s.frameworkReader.details(requireCaller(ctx.caller), selector, req.reportingYear, req.languageCode);
      return { frameworks: [detail] };
    },
    async getFrameworksByIdentifiers(req, ctx) {
      const caller = requireCaller(ctx.caller);
      return { frameworks: await s.frameworkReader.byIdentifiers(caller, req.frameworkIdentifiers, req.frameworkIds, req.reportingYear, req.refuseAmbiguous === true) };
    },
    async getFrameworkYearSpecifics(req, ctx) {
      const selector = { identifier: req.frameworkIdentifier, frameworkId: req.frameworkId };
      return s.frameworkReader.yearSpecifics(requireCaller(ctx.caller), selector, req.reportingYear);
    },
    async renderFrameworkDocument(req, ctx) {
      return s.frameworkDocuments.render(requireCaller(ctx.caller), req);
    },

    // ---- changes (the owner) ----
    async addFramework(req, ctx) {
      return s.frameworks.add(requireCaller(ctx.caller), {
        identifier: req.frameworkIdentifier,
        name: req.frameworkName,
        currencyCode: req.frameworkCurrencyCode,
        visibility: req.frameworkVisibility,
        issuerLei: req.issuerLei,
        externalReviewer: req.externalReviewer,
        approvingAuthority: req.approvingAuthority,
      });
    },
    async addYearSpecificsToFramework(req, ctx) {
      return s.frameworks.addYearSpecifics(requireCaller(ctx.caller), {
        identifier: req.frameworkIdentifier,
        valueOutstanding: req.valueOutstanding,
        allocatedAmount: req.allocatedAmount,
        valueOutstandingFramework: req.valueOutstandingFramework,
        reportingYear: req.reportingYear,
        reportingPeriodStart: req.reportingPeriodStart,
        reportingPeriodEnd: req.reportingPeriodEnd,
        unallocatedProceedsPlacement: req.unallocatedProceedsPlacement,
      });
    },
    async addCategoryIndicatorToFramework(req, ctx) {
      return s.frameworkRows.addRow(requireCaller(ctx.caller), { identifier: req.frameworkIdentifier, ...req });
    },
    async removeIndicatorFromFramework(req, ctx) {
      const caller = requireCaller(ctx.caller);
      return s.frameworkRows.removeRow(caller, req.frameworkIdentifier, req.subCategoryId, req.indicatorId, req.reportingYear);
    },
    async removeCategoryFromFramework(req, ctx) {
      return s.frameworkRows.removeSubCategory(requireCaller(ctx.caller), req.frameworkIdentifier, req.subCategoryId, req.reportingYear);
    },
    async removeFrameworkYearSpecifics(req, ctx) {
      return s.frameworkRows.removeYearSpecifics(requireCaller(ctx.caller), req.frameworkIdentifier, req.reportingYear);
    },
    async recordFrameworkHolder(req, ctx) {
      await s.frameworkHolders.record(requireCaller(ctx.caller), req.assetIdentifier, req.frameworkId, req.exclusive);
      return {};
    },
    async removeFramework(req, ctx) {
      return s.frameworks.remove(requireCaller(ctx.caller), req.frameworkIdentifier);
    },
  };
}
