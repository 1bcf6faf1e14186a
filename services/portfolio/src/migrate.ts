import { runMigrationsProcess } from '@green-impact/shared/migrate-main';
import { portfolioSchema } from './service.js';

// Entry of the migrations Job: applies the portfolio schema's migrations to DATABASE_URL, then exits.
await runMigrationsProcess('portfolio', portfolioSchema);
