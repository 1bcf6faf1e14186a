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
  /** The EU taxonomy layer (issue 37, reports/eu-gbs/taxonomy-layer.ts): all null, or all set. */
  taxonomyActivityCode: string | null;
  taxonomyActivityName: string | null;
  environmentalObjective: string | null;
  technicalScreeningMet: boolean | null;
  doNoSignificantHarmMet: boolean | null;
  minimumSafeguardsMet: boolean | null;
  assetType: string | null;
  article5: boolean | null;
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
    taxonomyActivityCode: { name: 'taxonomy_activity_code', type: 'varchar', length: 8, nullable: true },
    taxonomyActivityName: { name: 'taxonomy_activity_name', type: 'varchar', length: 255, nullable: true },
    environmentalObjective: { name: 'environmental_objective', type: 'varchar', length: 40, nullable: true },
    technicalScreeningMet: { name: 'technical_screening_met', type: 'boolean', nullable: true },
    doNoSignificantHarmMet: { name: 'do_no_significant_harm_met', type: 'boolean', nullable: true },
    minimumSafeguardsMet: { name: 'minimum_safeguards_met', type: 'boolean', nullable: true },
    assetType: { name: 'asset_type', type: 'varchar', length: 15, nullable: true },
    article5: { name: 'article_5', type: 'boolean', nullable: true },
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
