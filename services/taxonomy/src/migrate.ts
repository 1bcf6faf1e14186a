import { runMigrationsProcess } from '@green-impact/shared/migrate-main';
import { taxonomySchema } from './service.js';

// Entry of the migrations Job: applies the taxonomy schema's migrations to DATABASE_URL, then exits.
await runMigrationsProcess('taxonomy', taxonomySchema);
