import { z } from 'zod';
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphqlContext } from '../../graphql/context.js';
import { changePayload, removalPayload, type ServiceAnswer } from '../../graphql/payloads.js';
import type { GraphqlFace } from '../operation.js';
import { identifier, int, json, number, oneOf, text, type Field } from '../fields.js';
import { SERVICE_ID } from '../../graphql/pagination.js';
import { ESG } from '../renders.js';
import { taxonomyChange } from '../taxonomy/taxonomy.js';

/**
 * The fields the frameworks and projects operations share (spec §4.6, §4.7), and their GraphQL changes'
 * faces. Types only: TaxonomyService owns every rule — identifiers and names 1 to 255 characters,
 * 4-digit years, registered 3-letter currencies, amounts from 0 to 10^15, positive ids — and its texts
 * (services/taxonomy/src/validation.ts, frameworks/inputs.ts).
 */

export const reportingYear = int('reporting_year', { doc: 'Reporting year, 4 digits.' });
export const languageCode = identifier('language_code', { doc: 'Language of the taxonomy names, one of languages; default: each name in its original language.' }).optional();
export const frameworkIdentifier = identifier('framework_identifier', { doc: "The framework's identifier (unique per account)." });
/** The spec's table misspells project_identifier as project_identifer; every project operation accepts both. */
export const projectIdentifier = identifier('project_identifier', { aliases: ['project_identifer'], doc: "The project's identifier (unique per account)." });
export const name = (v1: string) => text(v1, { doc: 'Name, 1 to 255 characters.' });
export const currencyCode = (v1: string) => identifier(v1, { doc: 'A registered currency, 3 letters.' });
/** Default private on add, unchanged on update; a filter on reads. GraphQL's PUBLIC / PRIVATE match in any case. */
export const visibility = (v1: string) => oneOf(v1, ['public', 'private'], { doc: 'public or private.', graphql: 'Visibility' }).optional();
/** The visibility of an add: who sees the item. */
export const WHO_SEES = 'Who sees it: public or private; private on add and unchanged on update when omitted.';
/** An amount, volume or indicator value: finite, from 0 to 10^15 (the service checks the bounds). */
export const amount = (v1: string, doc: string) => number(v1, { doc });

/** The EU Green Bond Standard's report fields of a framework (issue 37); optional, each unchanged on update when absent. */
export const bondReportFields = {
  issuerLei: identifier('issuer_lei', { doc: "The issuer's legal entity identifier, ISO 17442 (20 characters, check digits verified)." }).optional(),
  externalReviewer: text('external_reviewer', { doc: "The external reviewer's identity and contact, at most 255 characters." }).optional(),
  approvingAuthority: text('approving_authority', { doc: 'The competent authority that approved the bond prospectus, at most 255 characters.' }).optional(),
};
/** ... and of a framework's year. */
export const bondReportYearFields = {
  reportingPeriodStart: identifier('reporting_period_start', { doc: "The reporting period's first date, YYYY-MM-DD (with reportingPeriodEnd).", graphql: 'Date' }).optional(),
  reportingPeriodEnd: identifier('reporting_period_end', { doc: "The reporting period's last date, YYYY-MM-DD (with reportingPeriodStart).", graphql: 'Date' }).optional(),
  unallocatedProceedsPlacement: text('unallocated_proceeds_placement', { doc: 'Where unallocated proceeds are placed, at most 1 000 characters.' }).optional(),
};

/** A project's financing (issue 37, ICMA's impact table); all optional, each unchanged on update when absent. */
export const projectFinancingFields = {
  countryCode: identifier('project_country_code', { doc: 'Where the project is: ISO 3166-1 alpha-2 country code.' }).optional(),
  lifetimeYears: int('project_lifetime_years', { doc: "The project's expected lifetime, whole years from 1 to 200." }).optional(),
  financingType: oneOf('project_financing_type', ['financing', 'refinancing'], { doc: 'financing (new) or refinancing.', graphql: 'FinancingType' }).optional(),
};
/** A project's cost and the issuer's signed amount of a year; their ratio is the issuer's financing share. */
export const projectYearFinancingFields = {
  totalProjectCost: amount('total_project_cost', "The project's total cost, in its currency; above 0.").optional(),
  signedAmount: amount('signed_amount', "The issuer's signed amount, in the project currency; at most the total project cost.").optional(),
};
export const id = (v1: string, doc: string) => int(v1, { doc, graphql: 'ID' });
/** The spec's yes / no (/v1/call): use of proceeds relates to the value outstanding (yes) or the allocated amount (no). */
export const valueOutstandingFrameworkYesNo = oneOf('value_outstanding_framework', ['yes', 'no'], {
  doc: 'yes: use of proceeds relates to the value outstanding; no: to the allocated amount.',
});
/** The same flag as GraphQL's Boolean (GraphQL has checked the type); a refusal names it as /v1/call does. */
export const valueOutstandingFrameworkFlag: Field<boolean, true> = {
  ...json('value_outstanding_framework', { doc: 'True when use of proceeds relates to the value outstanding, false when to the allocated amount.', graphql: 'Boolean' }),
  schema: z.boolean({ error: 'type' }),
} as unknown as Field<boolean, true>;

/** How a row's indicator value was obtained (issue 37); all optional, each kept on update when absent. */
const valueMetadataFields = {
  valueType: oneOf('indicator_value_type', ['expected', 'measured'], { doc: 'expected (ex ante) or measured (ex post); kept on update when omitted.', graphql: 'ValueType' }).optional(),
  valueBasis: oneOf('indicator_value_basis', ['gross', 'net'], { doc: 'gross, or net of the baseline; kept on update when omitted.', graphql: 'ValueBasis' }).optional(),
  baseline: amount('baseline_value', "The baseline the value is measured against, in the indicator's unit.").optional(),
  emissionFactor: amount('emission_factor', 'The emission factor the value was computed with.').optional(),
  methodologySource: text('methodology_source', { doc: "The methodology's source, at most 255 characters." }).optional(),
  methodologyVersion: text('methodology_version', { doc: "The methodology's version, at most 255 characters." }).optional(),
};
/** A (sub category, indicator) row's fields after the owner's identifier (GraphQL's CategoryIndicatorInput). */
const rowFields = {
  year: reportingYear,
  subCategoryId: id('sub_category_id', 'The sub category.'),
  volume: amount('sub_category_volume', "Funding / use of proceeds of the sub category, in the owner's currency. One per sub category: it replaces the volume in the sub category's other rows."),
  indicatorId: id('indicator_id', 'The indicator.'),
  value: amount('indicator_value', "The indicator's value, in its unit."),
  ...valueMetadataFields,
};
/** The input types the framework and project changes share; `identifier` names either. */
const either = { identifier: "The framework's or project's identifier." };

/** What sets a framework's changes apart from a project's: which it is, its identifier field and how it reads after a change. */
export interface Owner<T> {
  entity: 'framework' | 'project';
  identifier: Field<string, true>;
  read: ItemRead<T>;
  /** The item's id (the service's frameworkId or projectId): a removal's removedId, a connection's cursor. */
  idOf: (item: T) => number;
}

/** Adds or updates a row of an owner; the request follows the owner's identifier with rowRequest. */
export const rowChange = <M extends string, T>(method: M, owner: Owner<T>) => ({
  ...taxonomyChange(method, `Adds or updates a (sub category, indicator) row of a ${owner.entity} for a year.`),
  input: { identifier: owner.identifier, ...rowFields },
  graphql: changed(method, owner.entity, owner.read, true, { input: { name: 'CategoryIndicatorInput', fields: either } }),
});
type RowInput = { year: number; subCategoryId: number; volume: number; indicatorId: number; value: number } & {
  valueType?: string; valueBasis?: string; baseline?: number; emissionFactor?: number; methodologySource?: string; methodologyVersion?: string;
};
export const rowRequest = (i: RowInput) => ({
  subCategoryId: i.subCategoryId,
  subCategoryVolume: i.volume,
  indicatorId: i.indicatorId,
  indicatorValue: i.value,
  reportingYear: i.year,
  indicatorValueType: i.valueType,
  indicatorValueBasis: i.valueBasis,
  baselineValue: i.baseline,
  emissionFactor: i.emissionFactor,
  methodologySource: i.methodologySource,
  methodologyVersion: i.methodologyVersion,
});

/** Removes one row of an owner. */
export const rowRemoval = <M extends string, T>(method: M, owner: Owner<T>) => ({
  ...taxonomyChange(method, `Removes one (sub category, indicator) row of a ${owner.entity} for a year.`),
  input: { identifier: owner.identifier, year: reportingYear, subCategoryId: rowFields.subCategoryId, indicatorId: rowFields.indicatorId },
  graphql: changed(method, owner.entity, owner.read, true, {
    input: { name: 'RemoveIndicatorRowInput', doc: 'Identifies one (sub category, indicator) row of a framework or project.', fields: either },
  }),
});

/** Removes every row of a sub category from an owner. */
export const subCategoryRemoval = <M extends string, T>(method: M, owner: Owner<T>) => ({
  ...taxonomyChange(method, `Removes every row of a sub category from a ${owner.entity} for a year.`),
  input: { identifier: owner.identifier, year: reportingYear, subCategoryId: rowFields.subCategoryId },
  graphql: changed(method, owner.entity, owner.read, true, {
    input: { name: 'RemoveSubCategoryRowsInput', doc: 'Identifies the rows of one sub category of a framework or project.', fields: either },
  }),
});

/** A change of an owner's year named by its identifier and the year alone (GraphQL: arguments, not an input). */
export const yearChange = <M extends string, T>(method: M, summary: string, owner: Owner<T>) => ({
  ...taxonomyChange(method, summary),
  input: { identifier: owner.identifier, year: reportingYear },
  graphql: changed(method, owner.entity, owner.read, false),
});

/** The removal of an owner with everything of every year. */
/** A framework's or project's name in types and sentences: Framework, Project. */
const typeName = (entity: Owner<unknown>['entity']) => (entity === 'framework' ? 'Framework' : 'Project');

/** The listing of the frameworks or projects a caller sees with their figures of a year (getFrameworks, getProjects). */
export const ownerListing = <M extends string>(method: M, entity: Owner<unknown>['entity']) => ({
  solution: ESG,
  operation: method,
  summary: `${typeName(entity)}s visible to the caller (its own and other accounts' public ones) with their figures of a year, in the order they were added.`,
  input: { year: reportingYear, visibility: visibility(`${entity}_visibility`).with({ doc: `Only public or only private ${entity}s; default both.` }) },
  service: 'taxonomy' as const,
  method,
});

/** The paging of that listing's GraphQL connection: by the service, both ways, ordered by the id, the identifier, the name or `fields`. */
export const ownerPaging = <T>(owner: Owner<T>, fields: Readonly<Record<string, string>>) => ({
  idOf: owner.idOf,
  idPattern: SERVICE_ID,
  backward: true as const,
  orderBy: { type: typeName(owner.entity), plural: `${owner.entity}s`, fields: { IDENTIFIER: "The owner's identifier, as text.", NAME: 'The name, as text.', ...fields } },
});

/** One framework or project (the caller's own with this identifier, else a public one) with its rows of a year: the spec's "array of … detail". */
export const ownerDetails = <M extends string, T>(method: M, owner: Owner<T>) => ({
  solution: ESG,
  operation: method,
  summary: `One ${owner.entity} (the caller's own with this identifier, else a public one) with its rows of a year.`,
  input: { identifier: owner.identifier, year: reportingYear, languageCode },
  service: 'taxonomy' as const,
  method,
});

/** GraphQL's framework(identifier, year) or project(identifier, year), read through the request's memoised detail, which the nested rows share. */
export const ownerRead = <M extends string, T>(method: M, owner: Owner<T>) => ({
  solution: ESG,
  summary: `One ${owner.entity} (the caller's own with this identifier, else a public one) with its figures of a year; null when none is visible.`,
  input: { identifier: owner.identifier, year: reportingYear },
  service: 'taxonomy' as const,
  method,
  graphql: {
    root: 'Query' as const,
    field: owner.entity,
    returns: typeName(owner.entity),
    nested: false,
    render: (_call: unknown, i: { identifier: string; year: number }, ctx: GraphqlContext) => owner.read(ctx, i.identifier, i.year),
  },
});

export const ownerRemoval = <M extends string, T>(method: M, summary: string, owner: Owner<T>) => ({
  ...taxonomyChange(method, summary),
  input: { identifier: owner.identifier },
  graphql: removed(method, owner.read, owner.idOf),
});

export const currentYear = (): number => new Date().getUTCFullYear();

type YearArg = { year?: number | null };
/** The year of a payload's item: the payload field's `year` argument, else the change's, else (adds) the current UTC year. */
const yearOf = (args: YearArg, changeYear: number | undefined) => args.year ?? changeYear ?? currentYear();

/** Reads the item an identifier names for the caller (own, else public) with a year's figures; null when none is visible. */
export type ItemRead<T> = (ctx: GraphqlContext, identifier: string, year: number) => Promise<T | null>;

/**
 * The GraphQL face of a change that leaves the framework or project in place: its payload carries the
 * item as `read` shows it to the caller after the change (FrameworkPayload.framework, ProjectPayload.project).
 */
export function changed<I extends { identifier: string; year?: number }, T>(
  field: string,
  entity: 'framework' | 'project',
  read: ItemRead<T>,
  nested = true,
  sdl: Pick<GraphqlFace<I, unknown>, 'input' | 'order'> = {},
) {
  return {
    ...sdl,
    root: 'Mutation' as const,
    field,
    nested,
    returns: `${typeName(entity)}Payload!`,
    render: async (call: () => Promise<ServiceAnswer>, i: I, ctx: GraphqlContext) => {
      const answer = await call();
      return changePayload(ctx, answer, entity, (args: YearArg) => read(ctx, i.identifier, yearOf(args, i.year)));
    },
  };
}

/** The GraphQL face of a removal: removedId is the item's id, read before it as the caller. */
function removed<T>(field: string, read: ItemRead<T>, idOf: (item: T) => number) {
  return {
    root: 'Mutation' as const,
    field,
    nested: false,
    returns: 'RemovalPayload!',
    render: (call: () => Promise<ServiceAnswer>, i: { identifier: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
      removalPayload(ctx, info, async () => {
        const found = await read(ctx, i.identifier, currentYear());
        return found && idOf(found);
      }, call),
  };
}
