import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import { SCHEMA } from '../schema.js';

/** Columns every named taxonomy item has: a name in its original language, per reporting year. */
export interface NamedItemRow {
  id: number;
  reportingYear: number;
  name: string;
  languageCode: string;
  createdAt: Date;
  updatedAt: Date;
}

export type CategoryRow = NamedItemRow;
export type UnitRow = NamedItemRow;
export type SuperIndicatorRow = NamedItemRow;

export interface SubCategoryRow extends NamedItemRow {
  categoryId: number;
}

export interface IndicatorRow extends NamedItemRow {
  superIndicatorId: number;
  unitId: number;
}

export interface SuperIndicatorCategoryRow {
  superIndicatorId: number;
  categoryId: number;
  reportingYear: number;
}

const named: Record<keyof NamedItemRow, EntitySchemaColumnOptions> = {
  id: { type: 'int', primary: true, generated: 'increment' },
  reportingYear: { name: 'reporting_year', type: 'int' },
  name: { type: 'varchar', length: 255 },
  languageCode: { name: 'language_code', type: 'varchar', length: 8 },
  createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
  updatedAt: { name: 'updated_at', type: 'timestamptz', updateDate: true },
};

export const CategoryEntity = new EntitySchema<CategoryRow>({
  name: 'Category',
  tableName: 'categories',
  schema: SCHEMA,
  columns: named,
});

export const SubCategoryEntity = new EntitySchema<SubCategoryRow>({
  name: 'SubCategory',
  tableName: 'sub_categories',
  schema: SCHEMA,
  columns: { ...named, categoryId: { name: 'category_id', type: 'int' } },
});

export const UnitEntity = new EntitySchema<UnitRow>({
  name: 'Unit',
  tableName: 'units',
  schema: SCHEMA,
  columns: named,
});

export const SuperIndicatorEntity = new EntitySchema<SuperIndicatorRow>({
  name: 'SuperIndicator',
  tableName: 'super_indicators',
  schema: SCHEMA,
  columns: named,
});

export const SuperIndicatorCategoryEntity = new EntitySchema<SuperIndicatorCategoryRow>({
  name: 'SuperIndicatorCategory',
  tableName: 'super_indicator_categories',
  schema: SCHEMA,
  columns: {
    superIndicatorId: { name: 'super_indicator_id', type: 'int', primary: true },
    categoryId: { name: 'category_id', type: 'int', primary: true },
    reportingYear: { name: 'reporting_year', type: 'int' },
  },
});

export const IndicatorEntity = new EntitySchema<IndicatorRow>({
  name: 'Indicator',
  tableName: 'indicators',
  schema: SCHEMA,
  columns: {
    ...named,
    superIndicatorId: { name: 'super_indicator_id', type: 'int' },
    unitId: { name: 'unit_id', type: 'int' },
  },
});

export const taxonomyItemEntities = [
  CategoryEntity,
  SubCategoryEntity,
  UnitEntity,
  SuperIndicatorEntity,
  SuperIndicatorCategoryEntity,
  IndicatorEntity,
];
