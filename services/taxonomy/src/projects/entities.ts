import { EntitySchema } from 'typeorm';
import { SCHEMA } from '../schema.js';
import { ownedEntityColumns, rowEntityColumns, type OwnedRecord, type OwnedRowRecord } from '../frameworks/entities.js';

/** A project: consolidated into the framework it refers to (by id, resolved when added). */
export interface ProjectRecord extends OwnedRecord {
  frameworkId: number;
  /** ISO 3166-1 alpha-2, issue 37; null when not given (as the three below). */
  countryCode: string | null;
  lifetimeYears: number | null;
  financingType: FinancingType | null;
}

export type FinancingType = 'financing' | 'refinancing';

export interface ProjectYearSpecificsRecord {
  projectId: number;
  reportingYear: number;
  allocatedAmount: number;
  totalProjectCost: number | null;
  signedAmount: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectRowRecord extends OwnedRowRecord {
  projectId: number;
}

export const ProjectEntity = new EntitySchema<ProjectRecord>({
  name: 'Project',
  tableName: 'projects',
  schema: SCHEMA,
  columns: {
    ...ownedEntityColumns,
    frameworkId: { name: 'framework_id', type: 'int' },
    countryCode: { name: 'country_code', type: 'varchar', length: 2, nullable: true },
    lifetimeYears: { name: 'lifetime_years', type: 'int', nullable: true },
    financingType: { name: 'financing_type', type: 'varchar', length: 11, nullable: true },
  },
});

export const ProjectYearSpecificsEntity = new EntitySchema<ProjectYearSpecificsRecord>({
  name: 'ProjectYearSpecifics',
  tableName: 'project_year_specifics',
  schema: SCHEMA,
  columns: {
    projectId: { name: 'project_id', type: 'int', primary: true },
    reportingYear: { name: 'reporting_year', type: 'int', primary: true },
    allocatedAmount: { name: 'allocated_amount', type: 'double precision' },
    totalProjectCost: { name: 'total_project_cost', type: 'double precision', nullable: true },
    signedAmount: { name: 'signed_amount', type: 'double precision', nullable: true },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
    updatedAt: { name: 'updated_at', type: 'timestamptz', updateDate: true },
  },
});

export const ProjectRowEntity = new EntitySchema<ProjectRowRecord>({
  name: 'ProjectRow',
  tableName: 'project_rows',
  schema: SCHEMA,
  columns: { projectId: { name: 'project_id', type: 'int', primary: true }, ...rowEntityColumns },
});

export const projectEntities = [ProjectEntity, ProjectYearSpecificsEntity, ProjectRowEntity];
