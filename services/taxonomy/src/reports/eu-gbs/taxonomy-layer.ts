import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import { ASSET_TYPES, ENVIRONMENTAL_OBJECTIVES, type AssetType, type EnvironmentalObjective } from '@green-impact/shared/eu-green-bonds';
import { MAX_NAME_LENGTH, truncate } from '../../validation.js';

/**
 * The EU taxonomy layer of one allocation (issue 37; Regulation (EU) 2023/2631 Article 4 and 5, Regulation
 * (EU) 2020/852 Articles 3 and 9): the taxonomy activity, the environmental objective it contributes to, the
 * three alignment conditions (technical screening criteria, do no significant harm, minimum safeguards), the
 * asset type, and whether the allocation is in the Article 5 pocket (proceeds, up to 15 %, spent on activities
 * whose technical screening criteria are not yet in force or that meet the other Article 3 conditions). The
 * service owns the rules and texts, each naming its field. Pure: no storage, no clock.
 */


/** Article 5(1): at most 15 % of the bond's proceeds may use the flexibility. */
export const ARTICLE_5_MAX_SHARE = 0.15;

export interface TaxonomyLayer {
  /** Activity number in the Delegated Act's annex, e.g. "4.1". */
  activityCode: string;
  activityName: string;
  objective: EnvironmentalObjective;
  technicalScreeningMet: boolean;
  doNoSignificantHarmMet: boolean;
  minimumSafeguardsMet: boolean;
  assetType: AssetType;
  /** The allocation is in the Article 5 flexibility pocket (not taxonomy-aligned). */
  article5: boolean;
}

export interface TaxonomyLayerInput {
  activityCode?: string;
  activityName?: string;
  objective?: string;
  technicalScreeningMet?: boolean;
  doNoSignificantHarmMet?: boolean;
  minimumSafeguardsMet?: boolean;
  assetType?: string;
  article5?: boolean;
}

const ACTIVITY_CODE = /^\d{1,2}(\.\d{1,2}){1,2}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Checks one layer; every text names its field (snake_case, as the /v1/call parameters). */
export function taxonomyLayer(input: TaxonomyLayerInput): TaxonomyLayer {
  const code = (input.activityCode ?? '').trim();
  if (!ACTIVITY_CODE.test(code)) {
    throw new InvalidArgumentError(`taxonomy_activity_code must be an EU taxonomy activity number such as "4.1", got "${truncate(code)}".`, { field: 'taxonomy_activity_code' });
  }
  const name = (input.activityName ?? '').trim();
  if (name === '' || name.length > MAX_NAME_LENGTH || CONTROL.test(name)) {
    throw new InvalidArgumentError(`taxonomy_activity_name must be 1 to ${MAX_NAME_LENGTH} characters on one line.`, { field: 'taxonomy_activity_name' });
  }
  const objective = oneOf('environmental_objective', input.objective, ENVIRONMENTAL_OBJECTIVES);
  const assetType = oneOf('asset_type', input.assetType, ASSET_TYPES);
  return {
    activityCode: code,
    activityName: name,
    objective,
    technicalScreeningMet: input.technicalScreeningMet === true,
    doNoSignificantHarmMet: input.doNoSignificantHarmMet === true,
    minimumSafeguardsMet: input.minimumSafeguardsMet === true,
    assetType,
    article5: input.article5 === true,
  };
}

function oneOf<T extends string>(field: string, value: string | undefined, allowed: readonly T[]): T {
  const v = (value ?? '').trim().toLowerCase();
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new InvalidArgumentError(`${field} must be one of ${allowed.join(', ')}, got "${truncate(value ?? '')}".`, { field });
}

/** Taxonomy-aligned (Regulation (EU) 2020/852, Article 3): all three conditions met and not in the Article 5 pocket. */
export function isAligned(layer: TaxonomyLayer): boolean {
  return !layer.article5 && layer.technicalScreeningMet && layer.doNoSignificantHarmMet && layer.minimumSafeguardsMet;
}

export interface AllocationWithLayer {
  /** Allocated amount in the bond currency. */
  amount: number;
  layer: TaxonomyLayer | null;
}

export interface TaxonomyAlignment {
  allocated: number;
  aligned: number;
  article5: number;
  /** Allocated with no taxonomy layer recorded. */
  unassessed: number;
  /** Aligned ÷ allocated × 100; null when nothing is allocated. */
  alignedPercent: number | null;
  /** Article 5 pocket ÷ allocated × 100; null when nothing is allocated. */
  article5Percent: number | null;
}

/** Sums a bond's allocations into its alignment figures (Annex II, section on taxonomy alignment). */
export function taxonomyAlignment(allocations: readonly AllocationWithLayer[]): TaxonomyAlignment {
  let allocated = 0;
  let aligned = 0;
  let article5 = 0;
  let unassessed = 0;
  for (const a of allocations) {
    allocated += a.amount;
    if (a.layer === null) unassessed += a.amount;
    else if (a.layer.article5) article5 += a.amount;
    else if (isAligned(a.layer)) aligned += a.amount;
  }
  const pct = (x: number) => (allocated > 0 ? (x / allocated) * 100 : null);
  return { allocated, aligned, article5, unassessed, alignedPercent: pct(aligned), article5Percent: pct(article5) };
}

/**
 * Refuses an Article 5 pocket above 15 % of the bond's proceeds (Article 5(1)); `proceeds` is the bond's
 * total (allocated and unallocated), in the bond currency. Checked when a document is rendered, since the
 * pocket's amounts (in each project's currency) and the proceeds change apart: FAILED_PRECONDITION, as the
 * stored figures, not the request, are at fault.
 */
export function checkArticle5(alignment: TaxonomyAlignment, proceeds: number): void {
  if (proceeds > 0 && alignment.article5 > proceeds * ARTICLE_5_MAX_SHARE + 1e-9) {
    throw new FailedPreconditionError(
      `article_5 allocations must be at most 15 % of the bond's proceeds (Regulation (EU) 2023/2631, Article 5), got ${((alignment.article5 / proceeds) * 100).toFixed(2)} %.`,
    );
  }
}
