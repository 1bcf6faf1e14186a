import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { requireCaller } from '@green-impact/shared/caller';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { TaxonomyStores } from '../stores.js';

/** §4.7 projects and buildFrameworkFromProjects: thin translations to store calls. */
export function projectHandlers(s: TaxonomyStores): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  return {
    // ---- reads (own and public) ----
    async getProjects(req, ctx) {
      const caller = requireCaller(ctx.caller);
      // No page asked for: the whole list up to MAX_LIST_ITEMS, in identifier order (/v1/call's getProjects).
      if (req.pageSize === undefined) {
        const { projects, totalCount } = await s.projectReader.list(caller, req.reportingYear, req.projectVisibility);
        return { projects, nextPageToken: '', hasPreviousPage: false, itemPageTokens: [], ...(totalCount !== undefined ? { totalCount } : {}) };
      }
      const page = await s.projectReader.page(caller, req.reportingYear, req.projectVisibility, { size: req.pageSize, token: req.pageToken, before: req.pageBefore, order: req.pageOrder });
      return {
        projects: page.projects,
        nextPageToken: page.nextPageToken,
        totalCount: page.totalCount,
        hasPreviousPage: page.hasPreviousPage,
        itemPageTokens: page.itemPageTokens,
      };
    },
    async getProjectDetails(req, ctx) {
      const detail = await s.projectReader.details(requireCaller(ctx.caller), req.projectIdentifier, req.reportingYear, req.languageCode);
      return { projects: [detail] };
    },

    // ---- changes (the owner) ----
    async addProject(req, ctx) {
      return s.projects.add(requireCaller(ctx.caller), {
        identifier: req.projectIdentifier,
        name: req.projectName,
        currencyCode: req.projectCurrencyCode,
        frameworkIdentifier: req.frameworkIdentifier,
        visibility: req.projectVisibility,
        countryCode: req.projectCountryCode,
        lifetimeYears: req.projectLifetimeYears,
        financingType: req.projectFinancingType,
      });
    },
    async addYearSpecificsToProject(req, ctx) {
      return s.projects.addYearSpecifics(requireCaller(ctx.caller), {
        identifier: req.projectIdentifier,
        allocatedAmount: req.allocatedAmount,
        reportingYear: req.reportingYear,
        totalProjectCost: req.totalProjectCost,
        signedAmount: req.signedAmount,
      });
    },
    async addCategoryIndicatorToProject(req, ctx) {
      return s.projectRows.addRow(requireCaller(ctx.caller), { identifier: req.projectIdentifier, ...req });
    },
    async setUnitSigned(req, ctx) {
      return s.unitSigns.set(requireCaller(ctx.caller), req.unitId, req.reportingYear, req.unitSigned);
    },
    async renderIcmaImpactTable(req, ctx) {
      return s.icmaReporter.render(requireCaller(ctx.caller), req);
    },
    async setProjectTaxonomyLayer(req, ctx) {
      return s.taxonomyLayers.set(requireCaller(ctx.caller), {
        identifier: req.projectIdentifier,
        reportingYear: req.reportingYear,
        activityCode: req.taxonomyActivityCode,
        activityName: req.taxonomyActivityName,
        objective: req.environmentalObjective,
        technicalScreeningMet: req.technicalScreeningMet,
        doNoSignificantHarmMet: req.doNoSignificantHarmMet,
        minimumSafeguardsMet: req.minimumSafeguardsMet,
        assetType: req.assetType,
        article5: req.article5,
      });
    },
    async removeProjectTaxonomyLayer(req, ctx) {
      return s.taxonomyLayers.remove(requireCaller(ctx.caller), req.projectIdentifier, req.reportingYear);
    },
    async renderEuGbsDocument(req, ctx) {
      return s.euGbsReporter.render(requireCaller(ctx.caller), req);
    },
    async renderIcmaImpactWorkbook(req, ctx) {
      return s.icmaReporter.renderWorkbook(requireCaller(ctx.caller), req);
    },
    async buildFrameworkFromProjects(req, ctx) {
      return s.frameworkBuilder.build(requireCaller(ctx.caller), req.frameworkIdentifier, req.reportingYear);
    },
    async removeIndicatorFromProject(req, ctx) {
      const caller = requireCaller(ctx.caller);
      return s.projectRows.removeRow(caller, req.projectIdentifier, req.subCategoryId, req.indicatorId, req.reportingYear);
    },
    async removeCategoryFromProject(req, ctx) {
      return s.projectRows.removeSubCategory(requireCaller(ctx.caller), req.projectIdentifier, req.subCategoryId, req.reportingYear);
    },
    async removeYearSpecificsFromProject(req, ctx) {
      return s.projectRows.removeYearSpecifics(requireCaller(ctx.caller), req.projectIdentifier, req.reportingYear);
    },
    async removeProject(req, ctx) {
      return s.projects.remove(requireCaller(ctx.caller), req.projectIdentifier);
    },
  };
}
