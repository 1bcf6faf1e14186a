import { EntitySchema } from 'typeorm';
import { SCHEMA } from '../schema.js';

export interface LanguageRow {
  id: number;
  code: string;
  name: string;
}

/** An SDG or an EU environmental objective: numbered, named in its original language. */
export interface GoalRow {
  id: number;
  goalNo: number;
  name: string;
  languageCode: string;
}

export const LanguageEntity = new EntitySchema<LanguageRow>({
  name: 'Language',
  tableName: 'languages',
  schema: SCHEMA,
  columns: {
    id: { type: 'int', primary: true },
    code: { type: 'varchar', length: 8 },
    name: { type: 'varchar', length: 64 },
  },
});

function goalEntity(name: string, tableName: string): EntitySchema<GoalRow> {
  return new EntitySchema<GoalRow>({
    name,
    tableName,
    schema: SCHEMA,
    columns: {
      id: { type: 'int', primary: true },
      goalNo: { name: 'goal_no', type: 'int' },
      name: { type: 'varchar', length: 255 },
      languageCode: { name: 'language_code', type: 'varchar', length: 8 },
    },
  });
}

export const SdgEntity = goalEntity('Sdg', 'sdgs');
export const EuObjectiveEntity = goalEntity('EuObjective', 'eu_objectives');

export const referenceEntities = [LanguageEntity, SdgEntity, EuObjectiveEntity];
