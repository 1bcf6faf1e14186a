import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import { requireOperator } from '@green-impact/shared/caller';
import { joinAnd, MSG } from '../messages.js';
import * as v from '../validation.js';
import { requireItem, SUB_CATEGORY } from './items.js';
import type { Outcome } from './year-named.js';

export interface GoalLinkInput {
  subCategoryId: number;
  reportingYear: number;
  sdgId?: number | undefined;
  euObjectiveId?: number | undefined;
}

interface Link {
  table: 'sub_category_sdgs' | 'sub_category_eu_objectives';
  column: 'sdg_id' | 'eu_objective_id';
  goalTable: 'sdgs' | 'eu_objectives';
  id: number;
  label: string;
  missing: string;
}

/** Links from sub categories to SDGs and EU environmental objectives (addGoalObjectiveToSubCategory). */
export class GoalLinkStore {
  constructor(private readonly ds: DataSource) {}

  /** Links the given SDG and/or EU objective; linking one already linked changes nothing. */
  async add(caller: Caller, input: GoalLinkInput): Promise<Outcome> {
    requireOperator(caller);
    const { id, year, links } = parse(input);
    return this.ds.transaction(async (m) => {
      await requireItem(m, SUB_CATEGORY, id, year);
      for (const link of links) {
        await requireGoal(m, link);
        await m.query(`INSERT INTO taxonomy.${link.table} (sub_category_id, ${link.column}) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
          id,
          link.id,
        ]);
      }
      return { id, message: MSG.goalsAdded(joinAnd(links.map((l) => l.label)), id) };
    });
  }

  /** Unlinks the given SDG and/or EU objective; NOT_FOUND when one of them is not linked. */
  async remove(caller: Caller, input: GoalLinkInput): Promise<Outcome> {
    requireOperator(caller);
    const { id, year, links } = parse(input);
    return this.ds.transaction(async (m) => {
      await requireItem(m, SUB_CATEGORY, id, year);
      for (const link of links) {
        const deleted: [unknown[], number] = await m.query(
          `DELETE FROM taxonomy.${link.table} WHERE sub_category_id = $1 AND ${link.column} = $2`,
          [id, link.id],
        );
        if (deleted[1] === 0) throw new NotFoundError(MSG.goalNotLinked(link.label, id));
      }
      return { id, message: MSG.goalsRemoved(joinAnd(links.map((l) => l.label)), id) };
    });
  }
}

function parse(input: GoalLinkInput): { id: number; year: number; links: Link[] } {
  const id = v.id('sub_category_id', input.subCategoryId);
  const year = v.reportingYear(input.reportingYear);
  const sdg = v.optionalId('sdg_id', input.sdgId);
  const eu = v.optionalId('eu_objective_id', input.euObjectiveId);
  const links: Link[] = [];
  if (sdg !== undefined) {
    links.push({ table: 'sub_category_sdgs', column: 'sdg_id', goalTable: 'sdgs', id: sdg, label: `SDG ${sdg}`, missing: MSG.noSuchSdg(sdg) });
  }
  if (eu !== undefined) {
    links.push({
      table: 'sub_category_eu_objectives',
      column: 'eu_objective_id',
      goalTable: 'eu_objectives',
      id: eu,
      label: `EU objective ${eu}`,
      missing: MSG.noSuchEuObjective(eu),
    });
  }
  if (links.length === 0) throw new InvalidArgumentError(MSG.goalOrObjectiveMissing, { field: 'sdg_id' });
  return { id, year, links };
}

async function requireGoal(m: EntityManager, link: Link): Promise<void> {
  const rows: unknown[] = await m.query(`SELECT 1 FROM taxonomy.${link.goalTable} WHERE id = $1`, [link.id]);
  if (rows.length === 0) throw new NotFoundError(link.missing);
}
