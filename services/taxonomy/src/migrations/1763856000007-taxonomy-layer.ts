import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The EU taxonomy layer of each allocation (issue 37; services/taxonomy/src/reports/eu-gbs/taxonomy-layer.ts):
 * on a project's year, where its allocated amount lives, the taxonomy activity, the environmental objective,
 * the three alignment flags, the asset type and the Article 5 pocket flag. Nullable, but all or none: a layer
 * is set whole (SetProjectTaxonomyLayer), so no row holds half of one. The checks repeat the service's rules
 * so no other writer can store what it refuses.
 */
export class TaxonomyLayer1763856000007 implements MigrationInterface {
  name = 'TaxonomyLayer1763856000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE taxonomy.project_year_specifics
        ADD COLUMN taxonomy_activity_code varchar(8) CHECK (taxonomy_activity_code ~ '^[0-9]{1,2}(\\.[0-9]{1,2}){1,2}$'),
        ADD COLUMN taxonomy_activity_name varchar(255) CHECK (btrim(taxonomy_activity_name) <> ''),
        ADD COLUMN environmental_objective varchar(40) CHECK (environmental_objective IN (
          'climate_change_mitigation', 'climate_change_adaptation', 'water_and_marine_resources',
          'circular_economy', 'pollution_prevention_and_control', 'biodiversity_and_ecosystems')),
        ADD COLUMN technical_screening_met boolean,
        ADD COLUMN do_no_significant_harm_met boolean,
        ADD COLUMN minimum_safeguards_met boolean,
        ADD COLUMN asset_type varchar(15) CHECK (asset_type IN ('fixed_asset', 'capex', 'opex', 'financial_asset')),
        ADD COLUMN article_5 boolean,
        ADD CONSTRAINT project_year_specifics_taxonomy_layer_whole CHECK (num_nulls(
          taxonomy_activity_code, taxonomy_activity_name, environmental_objective, technical_screening_met,
          do_no_significant_harm_met, minimum_safeguards_met, asset_type, article_5) IN (0, 8))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE taxonomy.project_year_specifics
        DROP CONSTRAINT project_year_specifics_taxonomy_layer_whole,
        DROP COLUMN article_5, DROP COLUMN asset_type, DROP COLUMN minimum_safeguards_met,
        DROP COLUMN do_no_significant_harm_met, DROP COLUMN technical_screening_met,
        DROP COLUMN environmental_objective, DROP COLUMN taxonomy_activity_name, DROP COLUMN taxonomy_activity_code`);
  }
}
