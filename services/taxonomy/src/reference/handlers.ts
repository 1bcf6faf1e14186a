import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { requireCaller } from '@green-impact/shared/caller';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { TaxonomyStores } from '../stores.js';

/** §4.3 getSDGs / getEUObjectives and §4.4 getLanguages: reference data, readable by any caller. */
export function referenceHandlers(s: TaxonomyStores): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  return {
    async getSdgs(req, ctx) {
      requireCaller(ctx.caller);
      return { sdgs: await s.goals.sdgs(req.languageCode) };
    },
    async getEuObjectives(req, ctx) {
      requireCaller(ctx.caller);
      return { euObjectives: await s.goals.euObjectives(req.languageCode) };
    },
    async getLanguages(_req, ctx) {
      requireCaller(ctx.caller);
      return { languages: s.languages.list().map((l) => ({ id: l.id, languageCode: l.code, language: l.name })) };
    },
  };
}
