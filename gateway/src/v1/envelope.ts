import { NETWORK_NAME } from '@green-impact/proto/rules';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { SOLUTIONS, VERSIONED_SOLUTIONS, type OperationContext, type OperationEntry, type Solution } from './operation.js';
import type { OperationTable } from './operation-table.js';
import { inputFromV1 } from '../catalogue/parse.js';

/** A /v1/call body after checking: the table row to run and its input, read with the row's fields. */
export interface ParsedCall {
  entry: OperationEntry;
  parameters: Record<string, unknown>;
  envelope: OperationContext['envelope'];
}

const MAX_ECHO = 64;

/**
 * Checks the envelope `{solution, operation, parameters, version?, network?}` (spec §4.1) and the
 * operation's parameters. Pure; every failure is an InvalidArgumentError naming the field.
 */
export function parseCall(body: unknown, table: OperationTable): ParsedCall {
  if (!isPlainObject(body)) {
    throw new InvalidArgumentError('The request body must be a JSON object with solution, operation and parameters.');
  }
  const solution = readSolution(body);
  const envelope = VERSIONED_SOLUTIONS.has(solution) ? readVersionAndNetwork(body) : {};

  const operation = body['operation'];
  if (operation === undefined || operation === null || operation === '') {
    throw new InvalidArgumentError('operation is required.');
  }
  if (typeof operation !== 'string') throw new InvalidArgumentError('operation must be a string.');
  const entry = table.find(solution, operation);
  if (!entry) throw new InvalidArgumentError(`Unknown operation "${echo(operation)}" for solution ${solution}.`);
  if (entry.envelope?.version === 'required' && envelope.version === undefined) {
    throw new InvalidArgumentError(`version is required for ${operation}.`);
  }
  if (entry.envelope?.network === 'required' && envelope.network === undefined) {
    throw new InvalidArgumentError(`network is required for ${operation}.`);
  }

  const raw = body['parameters'];
  if (raw !== undefined && raw !== null && !isPlainObject(raw)) {
    throw new InvalidArgumentError('parameters must be a JSON object.');
  }
  return { entry, parameters: inputFromV1(entry.input, raw ?? {}), envelope };
}

function readSolution(body: Record<string, unknown>): Solution {
  // One spec example of selectString sends `contract` in place of `solution` (spec §4.12).
  const solution = body['solution'] ?? body['contract'];
  if (solution === undefined || solution === null || solution === '') {
    throw new InvalidArgumentError('solution is required.');
  }
  if (typeof solution !== 'string') throw new InvalidArgumentError('solution must be a string.');
  if (!(SOLUTIONS as readonly string[]).includes(solution)) {
    throw new InvalidArgumentError(`Unknown solution "${echo(solution)}"; expected one of ${SOLUTIONS.join(', ')}.`);
  }
  return solution as Solution;
}

function readVersionAndNetwork(body: Record<string, unknown>): OperationContext['envelope'] {
  const out: OperationContext['envelope'] = {};
  const version = body['version'];
  if (version !== undefined && version !== null) {
    if (version !== 1 && version !== '1') throw new InvalidArgumentError('version must be 1.');
    out.version = 1;
  }
  const network = body['network'];
  if (network !== undefined && network !== null && network !== '') {
    if (typeof network !== 'string') throw new InvalidArgumentError('network must be a string.');
    if (!NETWORK_NAME.test(network)) {
      throw new InvalidArgumentError('network must be a network name such as sepolia.');
    }
    out.network = network;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Client text echoed in a message, cut short so a huge value cannot bloat the answer. */
function echo(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > MAX_ECHO ? `${clean.slice(0, MAX_ECHO)}…` : clean;
}
