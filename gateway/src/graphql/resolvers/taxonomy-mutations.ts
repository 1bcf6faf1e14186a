import { taxonomyClient } from '../../clients.js';
import {
  addCategoryParams,
  addIndicatorParams,
  addSubCategoryParams,
  addSuperIndicatorParams,
  addUnitParams,
  goalObjectiveParams,
  removeCategoryParams,
  removeIndicatorParams,
  removeSubCategoryParams,
  removeSuperIndicatorParams,
  removeUnitParams,
  requireGoalOrObjective,
} from '../../v1/operations/taxonomy-params.js';
import type { GraphQLResolveInfo } from 'graphql';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import { changePayload, removalPayload } from '../payloads.js';
import { taxonomyEntities as read } from './taxonomy-entities.js';

/**
 * Changes of the taxonomy (spec §4.3 adds and renames, and the removals it leaves unnamed). Each resolver
 * authenticates, validates its input with the /v1/call parameter specs (messages name the GraphQL
 * fields: `input.year must be a 4-digit year.`), calls TaxonomyService and answers its message and id.
 */

type Maybe<T> = T | null | undefined;

/**
 * Authenticates (before any validation, as /v1/call does) and picks the taxonomy client: 503 UNAVAILABLE
 * when this gateway has none configured.
 */
export async function prepare(ctx: GraphqlContext) {
  const opts = await callAs(ctx);
  return { client: taxonomyClient(ctx.clients), opts };
}

export interface AddCategoryInput {
  name: string;
  year: number;
  languageCode: string;
  newName?: Maybe<string>;
}
export interface AddSubCategoryInput extends AddCategoryInput {
  categoryId: string;
  newCategoryId?: Maybe<string>;
}
export interface AddUnitInput {
  name: string;
  year: number;
  languageCode?: Maybe<string>;
  newName?: Maybe<string>;
}
export interface AddSuperIndicatorInput extends AddUnitInput {
  categoryId: string;
  newCategoryId?: Maybe<string>;
}
export interface AddIndicatorInput extends AddUnitInput {
  superIndicatorId: string;
  unitId?: Maybe<string>;
  newSuperIndicatorId?: Maybe<string>;
  newUnitId?: Maybe<string>;
}
export interface GoalObjectiveInput {
  subCategoryId: string;
  year: number;
  sdgId?: Maybe<string>;
  euObjectiveId?: Maybe<string>;
}
export interface RemoveItemInput {
  id: string;
  year: number;
}
export interface RemoveSuperIndicatorInput extends RemoveItemInput {
  categoryId?: Maybe<string>;
}

const goalLabels = {
  sub_category_id: 'input.subCategoryId',
  reporting_year: 'input.year',
  sdg_id: 'input.sdgId',
  eu_objective_id: 'input.euObjectiveId',
} as const;

function goalObjective(input: GoalObjectiveInput) {
  const p = validateParameters(
    goalObjectiveParams,
    { sub_category_id: input.subCategoryId, reporting_year: input.year, sdg_id: input.sdgId, eu_objective_id: input.euObjectiveId },
    goalLabels,
  );
  requireGoalOrObjective(p, goalLabels);
  return { subCategoryId: p.sub_category_id, reportingYear: p.reporting_year, sdgId: p.sdg_id, euObjectiveId: p.eu_objective_id };
}

/** The item's id is input.id; removeSuperIndicator's category_id is input.categoryId (the id wins for removeCategory). */
const removeLabels = (idName: string) => ({ category_id: 'input.categoryId', [idName]: 'input.id', reporting_year: 'input.year' });

export const taxonomyMutations = {
  // ---- adds and renames ----
  async addCategory(_: unknown, { input }: { input: AddCategoryInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addCategoryParams,
      { category_name: input.name, reporting_year: input.year, category_name_changed: input.newName, language_code: input.languageCode },
      { category_name: 'input.name', reporting_year: 'input.year', category_name_changed: 'input.newName', language_code: 'input.languageCode' },
    );
    const req = { categoryName: p.category_name, reportingYear: p.reporting_year, categoryNameChanged: p.category_name_changed, languageCode: p.language_code };
    const answer = await client.addCategory(req, opts);
    return changePayload(ctx, answer, 'category', read.category(ctx, answer.id ?? 0, p.reporting_year));
  },
  async addSubCategory(_: unknown, { input }: { input: AddSubCategoryInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addSubCategoryParams,
      {
        sub_category_name: input.name,
        category_id: input.categoryId,
        reporting_year: input.year,
        sub_category_name_changed: input.newName,
        category_id_changed: input.newCategoryId,
        language_code: input.languageCode,
      },
      {
        sub_category_name: 'input.name',
        category_id: 'input.categoryId',
        reporting_year: 'input.year',
        sub_category_name_changed: 'input.newName',
        category_id_changed: 'input.newCategoryId',
        language_code: 'input.languageCode',
      },
    );
    const req = {
      subCategoryName: p.sub_category_name,
      categoryId: p.category_id,
      reportingYear: p.reporting_year,
      subCategoryNameChanged: p.sub_category_name_changed,
      categoryIdChanged: p.category_id_changed,
      languageCode: p.language_code,
    };
    const answer = await client.addSubCategory(req, opts);
    return changePayload(ctx, answer, 'subCategory', read.subCategory(ctx, answer.id ?? 0, p.reporting_year));
  },
  async addGoalObjectiveToSubCategory(_: unknown, { input }: { input: GoalObjectiveInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const req = goalObjective(input);
    const answer = await client.addGoalObjectiveToSubCategory(req, opts);
    return changePayload(ctx, answer, 'subCategory', read.subCategory(ctx, req.subCategoryId, req.reportingYear));
  },
  async addUnit(_: unknown, { input }: { input: AddUnitInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addUnitParams,
      { unit_name: input.name, reporting_year: input.year, unit_name_changed: input.newName, language_code: input.languageCode },
      { unit_name: 'input.name', reporting_year: 'input.year', unit_name_changed: 'input.newName', language_code: 'input.languageCode' },
    );
    const req = { unitName: p.unit_name, reportingYear: p.reporting_year, unitNameChanged: p.unit_name_changed, languageCode: p.language_code };
    const answer = await client.addUnit(req, opts);
    return changePayload(ctx, answer, 'unit', read.unit(ctx, answer.id ?? 0, p.reporting_year));
  },
  async addSuperIndicator(_: unknown, { input }: { input: AddSuperIndicatorInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addSuperIndicatorParams,
      {
        super_indicator_name: input.name,
        category_id: input.categoryId,
        reporting_year: input.year,
        super_indicator_name_changed: input.newName,
        category_id_changed: input.newCategoryId,
        language_code: input.languageCode,
      },
      {
        super_indicator_name: 'input.name',
        category_id: 'input.categoryId',
        reporting_year: 'input.year',
        super_indicator_name_changed: 'input.newName',
        category_id_changed: 'input.newCategoryId',
        language_code: 'input.languageCode',
      },
    );
    const req = {
      superIndicatorName: p.super_indicator_name,
      categoryId: p.category_id,
      reportingYear: p.reporting_year,
      superIndicatorNameChanged: p.super_indicator_name_changed,
      categoryIdChanged: p.category_id_changed,
      languageCode: p.language_code,
    };
    const answer = await client.addSuperIndicator(req, opts);
    return changePayload(ctx, answer, 'superIndicator', read.superIndicator(ctx, answer.id ?? 0, p.reporting_year));
  },
  async addIndicator(_: unknown, { input }: { input: AddIndicatorInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addIndicatorParams,
      {
        indicator_name: input.name,
        super_indicator_id: input.superIndicatorId,
        unit_id: input.unitId,
        reporting_year: input.year,
        indicator_name_changed: input.newName,
        super_indicator_id_changed: input.newSuperIndicatorId,
        unit_id_changed: input.newUnitId,
        language_code: input.languageCode,
      },
      {
        indicator_name: 'input.name',
        super_indicator_id: 'input.superIndicatorId',
        unit_id: 'input.unitId',
        reporting_year: 'input.year',
        indicator_name_changed: 'input.newName',
        super_indicator_id_changed: 'input.newSuperIndicatorId',
        unit_id_changed: 'input.newUnitId',
        language_code: 'input.languageCode',
      },
    );
    const req = {
      indicatorName: p.indicator_name,
      superIndicatorId: p.super_indicator_id,
      unitId: p.unit_id,
      reportingYear: p.reporting_year,
      indicatorNameChanged: p.indicator_name_changed,
      superIndicatorIdChanged: p.super_indicator_id_changed,
      unitIdChanged: p.unit_id_changed,
      languageCode: p.language_code,
    };
    const answer = await client.addIndicator(req, opts);
    return changePayload(ctx, answer, 'indicator', read.indicator(ctx, answer.id ?? 0, p.reporting_year));
  },

  // ---- removals ----
  async removeCategory(_: unknown, { input }: { input: RemoveItemInput }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeCategoryParams, { category_id: input.id, reporting_year: input.year }, removeLabels('category_id'));
    return removalPayload(ctx, info, p.category_id, () => client.removeCategory({ categoryId: p.category_id, reportingYear: p.reporting_year }, opts));
  },
  async removeSubCategory(_: unknown, { input }: { input: RemoveItemInput }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      removeSubCategoryParams,
      { sub_category_id: input.id, reporting_year: input.year },
      removeLabels('sub_category_id'),
    );
    const req = { subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
    return removalPayload(ctx, info, p.sub_category_id, () => client.removeSubCategory(req, opts));
  },
  async removeSuperIndicator(_: unknown, { input }: { input: RemoveSuperIndicatorInput }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      removeSuperIndicatorParams,
      { super_indicator_id: input.id, reporting_year: input.year, category_id: input.categoryId },
      removeLabels('super_indicator_id'),
    );
    const req = { superIndicatorId: p.super_indicator_id, reportingYear: p.reporting_year, categoryId: p.category_id };
    const answer = await client.removeSuperIndicator(req, opts);
    // With a category, only the link goes: the super indicator stays, linked to its other categories.
    if (p.category_id !== undefined) {
      return { ...changePayload(ctx, answer, 'superIndicator', read.superIndicator(ctx, p.super_indicator_id, p.reporting_year)), removedId: null };
    }
    return { ...(await removalPayload(ctx, info, p.super_indicator_id, async () => answer)), superIndicator: null };
  },
  async removeIndicator(_: unknown, { input }: { input: RemoveItemInput }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeIndicatorParams, { indicator_id: input.id, reporting_year: input.year }, removeLabels('indicator_id'));
    return removalPayload(ctx, info, p.indicator_id, () => client.removeIndicator({ indicatorId: p.indicator_id, reportingYear: p.reporting_year }, opts));
  },
  async removeUnit(_: unknown, { input }: { input: RemoveItemInput }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeUnitParams, { unit_id: input.id, reporting_year: input.year }, removeLabels('unit_id'));
    return removalPayload(ctx, info, p.unit_id, () => client.removeUnit({ unitId: p.unit_id, reportingYear: p.reporting_year }, opts));
  },
  async removeGoalObjectiveFromSubCategory(_: unknown, { input }: { input: GoalObjectiveInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const req = goalObjective(input);
    const answer = await client.removeGoalObjectiveFromSubCategory(req, opts);
    return changePayload(ctx, answer, 'subCategory', read.subCategory(ctx, req.subCategoryId, req.reportingYear));
  },
};
