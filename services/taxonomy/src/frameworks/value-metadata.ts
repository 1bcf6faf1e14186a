import { InvalidArgumentError } from '@green-impact/shared/errors';
import { MAX_AMOUNT, MAX_NAME_LENGTH } from '../validation.js';

/**
 * How an indicator value of a framework or project row was obtained (issue 37; ICMA's impact reporting asks
 * it stated): expected or measured, gross or net, its baseline, and a methodology reference (emission
 * factor, source, version). Every part is optional; the service owns the rules and their texts. Pure.
 */
export interface ValueMetadata {
  valueType?: 'expected' | 'measured' | undefined;
  valueBasis?: 'gross' | 'net' | undefined;
  baselineValue?: number | undefined;
  emissionFactor?: number | undefined;
  methodologySource?: string | undefined;
  methodologyVersion?: string | undefined;
}

/** As the gRPC request carries it (/v1/call names). */
export interface ValueMetadataInput {
  indicatorValueType?: string | undefined;
  indicatorValueBasis?: string | undefined;
  baselineValue?: number | undefined;
  emissionFactor?: number | undefined;
  methodologySource?: string | undefined;
  methodologyVersion?: string | undefined;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

function choice<V extends string>(field: string, values: readonly V[], value: string | undefined): V | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim().toLowerCase();
  if (!(values as readonly string[]).includes(v)) throw new InvalidArgumentError(`${field} must be ${values.join(' or ')}.`, { field });
  return v as V;
}

function reference(field: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if ([...trimmed].length > MAX_NAME_LENGTH || CONTROL.test(trimmed)) {
    throw new InvalidArgumentError(`${field} must be at most ${MAX_NAME_LENGTH} characters on one line.`, { field });
  }
  return trimmed;
}

/** A value in the indicator's unit: finite, within ±MAX_AMOUNT, and at least 0 unless the unit is signed (units.signed). */
export function unitValue(field: string, value: number, signed: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidArgumentError(`${field} must be a finite number.`, { field });
  if (!signed && value < 0) {
    // The text the spec's operations answered before units could be signed.
    throw new InvalidArgumentError(`${field} must be a finite number of at least 0.`, { field });
  }
  if (value > MAX_AMOUNT) throw new InvalidArgumentError(`${field} must be at most ${MAX_AMOUNT}.`, { field });
  if (value < -MAX_AMOUNT) throw new InvalidArgumentError(`${field} must be at least -${MAX_AMOUNT}.`, { field });
  return value === 0 ? 0 : value;
}

/** The checked metadata; the baseline's sign is checked with the unit's (unitValue) once the indicator is known. */
export function valueMetadata(req: ValueMetadataInput): ValueMetadata {
  const emissionFactor = req.emissionFactor;
  if (emissionFactor !== undefined && (!Number.isFinite(emissionFactor) || emissionFactor < 0 || emissionFactor > MAX_AMOUNT)) {
    throw new InvalidArgumentError(`emission_factor must be a finite number from 0 to ${MAX_AMOUNT}.`, { field: 'emission_factor' });
  }
  return {
    valueType: choice('indicator_value_type', ['expected', 'measured'] as const, req.indicatorValueType),
    valueBasis: choice('indicator_value_basis', ['gross', 'net'] as const, req.indicatorValueBasis),
    baselineValue: req.baselineValue,
    emissionFactor,
    methodologySource: reference('methodology_source', req.methodologySource),
    methodologyVersion: reference('methodology_version', req.methodologyVersion),
  };
}
