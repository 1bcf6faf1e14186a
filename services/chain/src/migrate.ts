import { runMigrationsProcess } from '@green-impact/shared/migrate-main';
import { chainSchema } from './service.js';

// Entry of the migrations Job: applies the chain schema's migrations to DATABASE_URL, then exits.
await runMigrationsProcess('chain', chainSchema);
