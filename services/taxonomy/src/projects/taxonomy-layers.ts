import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, NotFoundError } from '@green-impact/shared/errors';
import * as input from '../frameworks/inputs.js';
import { OWNED_MSG } from '../frameworks/messages.js';
import { accountOf, affected, PROJECT, requireOwned } from '../frameworks/owned.js';
import { taxonomyLayer, type TaxonomyLayer, type TaxonomyLayerInput } from '../reports/eu-gbs/taxonomy-layer.js';
import type { Outcome } from '../taxonomy/year-named.js';
import * as v from '../validation.js';

export interface SetTaxonomyLayerInput extends TaxonomyLayerInput {
  identifier: string;
  reportingYear: number;
}

/** The layer columns of project_year_specifics, as a reader selects them. */
export const LAYER_COLUMNS = `y.taxonomy_activity_code, y.taxonomy_activity_name, y.environmental_objective, y.technical_screening_met,
  y.do_no_significant_harm_met, y.minimum_safeguards_met, y.asset_type, y.article_5`;

export interface LayerColumns {
  taxonomy_activity_code: string | null;
  taxonomy_activity_name: string | null;
  environmental_objective: string | null;
  technical_screening_met: boolean | null;
  do_no_significant_harm_met: boolean | null;
  minimum_safeguards_met: boolean | null;
  asset_type: string | null;
  article_5: boolean | null;
}

/** The stored layer of a row read with LAYER_COLUMNS; null when none is set (the table holds all or none). */
export function layerOf(r: LayerColumns): TaxonomyLayer | null {
  if (r.taxonomy_activity_code === null) return null;
  return {
    activityCode: r.taxonomy_activity_code,
    activityName: r.taxonomy_activity_name!,
    objective: r.environmental_objective as TaxonomyLayer['objective'],
    technicalScreeningMet: r.technical_screening_met === true,
    doNoSignificantHarmMet: r.do_no_significant_harm_met === true,
    minimumSafeguardsMet: r.minimum_safeguards_met === true,
    assetType: r.asset_type as TaxonomyLayer['assetType'],
    article5: r.article_5 === true,
  };
}

/**
 * The EU taxonomy layer of a project's allocation in a year (issue 37): set whole on the year specifics
 * that hold the allocated amount, replacing the one before, in one statement (never half a layer). The
 * owner only; the year's allocated amount must exist first.
 */
export class TaxonomyLayerStore {
  constructor(private readonly ds: DataSource) {}

  async set(caller: Caller, req: SetTaxonomyLayerInput): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('project_identifier', req.identifier);
    const year = v.reportingYear(req.reportingYear);
    const layer = taxonomyLayer(req);
    return this.ds.transaction(async (m) => {
      const project = await requireOwned(m, PROJECT, account, identifier);
      const result: unknown = await m.query(
        `UPDATE taxonomy.project_year_specifics
         SET taxonomy_activity_code = $3, taxonomy_activity_name = $4, environmental_objective = $5, technical_screening_met = $6,
             do_no_significant_harm_met = $7, minimum_safeguards_met = $8, asset_type = $9, article_5 = $10, updated_at = now()
         WHERE project_id = $1 AND reporting_year = $2`,
        [project.id, year, layer.activityCode, layer.activityName, layer.objective, layer.technicalScreeningMet,
          layer.doNoSignificantHarmMet, layer.minimumSafeguardsMet, layer.assetType, layer.article5],
      );
      if (affected(result) === 0) throw new FailedPreconditionError(OWNED_MSG.layerNeedsYearSpecifics(identifier, year));
      return { id: project.id, message: OWNED_MSG.taxonomyLayerSet(year) };
    });
  }

  /** Removes the layer of the project's year (every column at once); the allocated amount stays. */
  async remove(caller: Caller, projectIdentifier: string, reportingYear: number): Promise<Outcome> {
    const account = accountOf(caller);
    const identifier = input.identifier('project_identifier', projectIdentifier);
    const year = v.reportingYear(reportingYear);
    return this.ds.transaction(async (m) => {
      const project = await requireOwned(m, PROJECT, account, identifier);
      const result: unknown = await m.query(
        `UPDATE taxonomy.project_year_specifics
         SET taxonomy_activity_code = NULL, taxonomy_activity_name = NULL, environmental_objective = NULL, technical_screening_met = NULL,
             do_no_significant_harm_met = NULL, minimum_safeguards_met = NULL, asset_type = NULL, article_5 = NULL, updated_at = now()
         WHERE project_id = $1 AND reporting_year = $2 AND taxonomy_activity_code IS NOT NULL`,
        [project.id, year],
      );
      if (affected(result) === 0) throw new NotFoundError(OWNED_MSG.noTaxonomyLayer(identifier, year));
      return { id: project.id, message: OWNED_MSG.taxonomyLayerRemoved(year) };
    });
  }
}
