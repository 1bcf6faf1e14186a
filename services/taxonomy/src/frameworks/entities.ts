import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import { SCHEMA } from '../schema.js';

export type VisibilityValue = 'private' | 'public';

/** Columns every item an account owns has (frameworks, projects). */
export interface OwnedRecord {
  id: number;
  accountId: string;
  identifier: string;
  name: string;
  currencyCode: string;
  visibility: VisibilityValue;
  createdAt: Date;
  updatedAt: Date;
}

export type FrameworkRecord = OwnedRecord;

/** V, L and the use-of-proceeds flag of a framework for one year. */
export interface FrameworkYearSpecificsRecord {
  frameworkId: number;
  reportingYear: number;
  valueOutstanding: number;
  allocatedAmount: number;
  valueOutstandingFramework: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** One (sub category, indicator) row of a framework or project for a year. */
export interface OwnedRowRecord {
  subCategoryId: number;
  indicatorId: number;
  reportingYear: number;
  subCategoryVolume: number;
  indicatorValue: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface FrameworkRowRecord extends OwnedRowRecord {
  frameworkId: number;
}

export const ownedEntityColumns: Record<keyof OwnedRecord, EntitySchemaColumnOptions> = {
  id: { type: 'int', primary: true, generated: 'increment' },
  accountId: { name: 'account_id', type: 'uuid' },
  identifier: { type: 'varchar', length: 255 },
  name: { type: 'varchar', length: 255 },
  currencyCode: { name: 'currency_code', type: 'varchar', length: 3 },
  visibility: { type: 'varchar', length: 8 },
  createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
  updatedAt: { name: 'updated_at', type: 'timestamptz', updateDate: true },
};

export const rowEntityColumns: Record<keyof OwnedRowRecord, EntitySchemaColumnOptions> = {
  subCategoryId: { name: 'sub_category_id', type: 'int', primary: true },
  indicatorId: { name: 'indicator_id', type: 'int', primary: true },
  reportingYear: { name: 'reporting_year', type: 'int' },
  subCategoryVolume: { name: 'sub_category_volume', type: 'double precision' },
  indicatorValue: { name: 'indicator_value', type: 'double precision' },
  createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
  updatedAt: { name: 'updated_at', type: 'timestamptz', updateDate: true },
};

export const FrameworkEntity = new EntitySchema<FrameworkRecord>({
  name: 'Framework',
  tableName: 'frameworks',
  schema: SCHEMA,
  columns: ownedEntityColumns,
});

export const FrameworkYearSpecificsEntity = new EntitySchema<FrameworkYearSpecificsRecord>({
  name: 'FrameworkYearSpecifics',
  tableName: 'framework_year_specifics',
  schema: SCHEMA,
  columns: {
    frameworkId: { name: 'framework_id', type: 'int', primary: true },
    reportingYear: { name: 'reporting_year', type: 'int', primary: true },
    valueOutstanding: { name: 'value_outstanding', type: 'double precision' },
    allocatedAmount: { name: 'allocated_amount', type: 'double precision' },
    valueOutstandingFramework: { name: 'value_outstanding_framework', type: 'boolean' },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
    updatedAt: { name: 'updated_at', type: 'timestamptz', updateDate: true },
  },
});

export const FrameworkRowEntity = new EntitySchema<FrameworkRowRecord>({
  name: 'FrameworkRow',
  tableName: 'framework_rows',
  schema: SCHEMA,
  columns: { frameworkId: { name: 'framework_id', type: 'int', primary: true }, ...rowEntityColumns },
});

export const frameworkEntities = [FrameworkEntity, FrameworkYearSpecificsEntity, FrameworkRowEntity];
