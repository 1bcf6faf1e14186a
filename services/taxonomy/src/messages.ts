/**
 * Message texts of the taxonomy service. Those marked §4.4 are the interface spec's, verbatim: legacy
 * clients match on them. Where the spec shows none, messages are short sentences; an add that creates
 * an item ends with its id (spec §4.3), and so does an idempotent add that finds it.
 */
export type ItemLabel = 'category' | 'sub category' | 'super indicator' | 'indicator' | 'unit';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const MSG = {
  // ---- adds, renames, removals ----
  added: (item: ItemLabel, id: number) => `${capital(item)} added with id ${id}.`,
  exists: (item: ItemLabel, id: number) => `${capital(item)} already exists with id ${id}.`,
  changed: (item: ItemLabel) => `${capital(item)} changed.`,
  removed: (item: ItemLabel) => `${capital(item)} removed.`,
  superIndicatorLinked: (categoryId: number, id: number) => `Super indicator added to category ${categoryId} with id ${id}.`,
  superIndicatorUnlinked: (categoryId: number) => `Super indicator removed from category ${categoryId}.`,
  goalsAdded: (what: string, subCategoryId: number) => `${what} added to sub category ${subCategoryId}.`,
  goalsRemoved: (what: string, subCategoryId: number) => `${what} removed from sub category ${subCategoryId}.`,

  // ---- §4.4 translations (verbatim) ----
  categoryTranslation: 'category translation added', // §4.4
  subCategoryTranslation: 'sub category translation changed', // §4.4
  superIndicatorTranslation: 'super indicator translation added', // §4.4
  indicatorTranslation: 'indicator translation added', // §4.4
  unitTranslation: 'unit translation changed', // §4.4

  // ---- errors ----
  noSuch: (item: ItemLabel, id: number, year: number) => `No such ${item} ${id} in ${year}.`,
  noSuchName: (item: ItemLabel, name: string, where: string) => `No ${item} named "${name}" ${where}.`,
  nameTaken: (item: ItemLabel, name: string, where: string, id: number) =>
    `A ${item} named "${name}" already exists ${where} (id ${id}).`,
  inUse: (item: ItemLabel, id: number, users: string[], remedy: string) =>
    `${capital(item)} ${id} is still used by ${joinAnd(users)}; ${remedy}.`,
  stillInUse: (item: ItemLabel, id: number) => `${capital(item)} ${id} is still in use; remove what uses it first.`,
  notInCategory: (superIndicatorId: number, categoryId: number) => `Super indicator ${superIndicatorId} is not in category ${categoryId}.`,
  noSuchSdg: (id: number) => `No such SDG ${id}; SDGs are numbered 1 to 17.`,
  noSuchEuObjective: (id: number) => `No such EU objective ${id}; EU objectives are numbered 1 to 6.`,
  goalOrObjectiveMissing: 'Give sdg_id, eu_objective_id or both.',
  goalNotLinked: (what: string, subCategoryId: number) => `${what} is not linked to sub category ${subCategoryId}.`,
  unitRequired: 'unit_id is required to add an indicator.',
  translationIsOriginal: (item: ItemLabel, id: number, language: string, rename: string) =>
    `${capital(item)} ${id} is in ${language} already; change its name with ${rename} instead.`,
} as const;

/** "a", "a and b", "a, b and c". */
export function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** "sub categories 3, 4" / "sub category 3", listing at most a few ids. */
export function countedIds(singular: string, plural: string, ids: number[], max = 5): string {
  const shown = ids.slice(0, max).join(', ');
  const more = ids.length > max ? ` and ${ids.length - max} more` : '';
  return `${ids.length === 1 ? singular : plural} ${shown}${more}`;
}
