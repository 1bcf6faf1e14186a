import type { EntityManager } from 'typeorm';
import { joinAnd } from '../messages.js';

/**
 * What frameworks and projects hold of the shared reference data, for the refusals of its removal.
 * They are counted, never named: they may be other accounts' private items.
 */
const counted = (n: number, singular: string, plural: string) => `${n} ${n === 1 ? singular : plural}`;

/** "the rows of 2 frameworks and 1 project" using a sub category or indicator, or nothing. */
export async function rowUsersOf(m: EntityManager, column: 'sub_category_id' | 'indicator_id', id: number): Promise<string[]> {
  const [r]: { frameworks: string; projects: string }[] = await m.query(
    `SELECT (SELECT count(DISTINCT framework_id) FROM taxonomy.framework_rows WHERE ${column} = $1) AS frameworks,
            (SELECT count(DISTINCT project_id) FROM taxonomy.project_rows WHERE ${column} = $1) AS projects`,
    [id],
  );
  const parts: string[] = [];
  if (Number(r!.frameworks)) parts.push(counted(Number(r!.frameworks), 'framework', 'frameworks'));
  if (Number(r!.projects)) parts.push(counted(Number(r!.projects), 'project', 'projects'));
  return parts.length ? [`the rows of ${joinAnd(parts)}`] : [];
}

/** "2 frameworks" / "1 project" in a currency, for the currency usage checks. */
export function currencyUsersIn(table: 'frameworks' | 'projects') {
  const [singular, plural] = table === 'frameworks' ? ['framework', 'frameworks'] : ['project', 'projects'];
  return async (m: EntityManager, code: string): Promise<string | undefined> => {
    const [r]: { n: string }[] = await m.query(`SELECT count(*) AS n FROM taxonomy.${table} WHERE currency_code = $1`, [code]);
    const n = Number(r!.n);
    return n ? counted(n, singular, plural) : undefined;
  };
}
