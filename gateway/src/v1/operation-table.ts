import { catalogue } from '../catalogue/index.js';
import { v1Entries } from '../catalogue/v1.js';
import type { OperationEntry, Solution } from './operation.js';

/**
 * THE /v1/call operation table: a row for every operation the catalogue (catalogue/) declares with a
 * /v1/call face. To add an operation, declare it in catalogue/<domain>/.
 */
export const operationEntries: readonly OperationEntry[] = [
  ...v1Entries(catalogue),
];

export interface OperationTable {
  find(solution: Solution, operation: string): OperationEntry | undefined;
  entries: readonly OperationEntry[];
}

/** Indexes entries; throws on duplicate operations, or on a parameter name (or alias) given to two fields of a row. */
export function createOperationTable(entries: readonly OperationEntry[]): OperationTable {
  const byKey = new Map<string, OperationEntry>();
  for (const entry of entries) {
    const key = `${entry.solution}\u0000${entry.operation}`;
    if (byKey.has(key)) throw new Error(`Operation ${entry.solution}/${entry.operation} is defined twice.`);
    const fields = Object.values(entry.input);
    const names = new Set<string>();
    for (const field of fields) {
      if (names.has(field.v1)) throw new Error(`Parameter ${field.v1} of ${entry.operation} is declared twice.`);
      names.add(field.v1);
    }
    for (const field of fields) {
      for (const alias of field.aliases) {
        if (names.has(alias)) throw new Error(`Alias ${alias} of ${entry.operation}.${field.v1} names another parameter.`);
        names.add(alias);
      }
    }
    byKey.set(key, entry);
  }
  return {
    find: (solution, operation) => byKey.get(`${solution}\u0000${operation}`),
    entries,
  };
}

export const operationTable: OperationTable = createOperationTable(operationEntries);
