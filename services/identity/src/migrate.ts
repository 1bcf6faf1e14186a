import { runMigrationsProcess } from '@green-impact/shared/migrate-main';
import { identitySchema } from './service.js';

// Entry of the migrations Job: applies the identity schema's migrations to DATABASE_URL, then exits.
await runMigrationsProcess('identity', identitySchema);
