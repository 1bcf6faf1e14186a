import { EntitySchema } from 'typeorm';
import { SCHEMA } from '../schema.js';

export interface CurrencyRow {
  id: number;
  code: string;
  createdAt: Date;
}

/** A stored FX rate: rate = numerator / denominator (1 denominator = rate numerators), for one year. */
export interface FxRateRow {
  id: number;
  reportingYear: number;
  numeratorCode: string;
  denominatorCode: string;
  rate: number;
  createdAt: Date;
  updatedAt: Date;
}

export const CurrencyEntity = new EntitySchema<CurrencyRow>({
  name: 'Currency',
  tableName: 'currencies',
  schema: SCHEMA,
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    code: { type: 'varchar', length: 3 },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
  },
});

export const FxRateEntity = new EntitySchema<FxRateRow>({
  name: 'FxRate',
  tableName: 'fx_rates',
  schema: SCHEMA,
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    reportingYear: { name: 'reporting_year', type: 'int' },
    numeratorCode: { name: 'numerator_code', type: 'varchar', length: 3 },
    denominatorCode: { name: 'denominator_code', type: 'varchar', length: 3 },
    rate: { type: 'double precision' },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
    updatedAt: { name: 'updated_at', type: 'timestamptz', updateDate: true },
  },
});

export const currencyEntities = [CurrencyEntity, FxRateEntity];
