import { register } from 'node:module';
import { enableInstrumentations } from './instrumentations.js';
import { ConfigError, processEnvironment } from '../config.js';
import { tracingRequested } from './tracing.js';

/**
 * `node --import @green-impact/shared/tracing/register <main>`: hooks module loading (import-in-the-middle
 * for ESM, require-in-the-middle for CommonJS) and enables the instrumentations before the service's own
 * modules load, which an ESM process cannot do from its main module (its imports load before its code
 * runs). Only when tracing is configured (tracing.ts); otherwise nothing is hooked. The service's
 * initTracing() then registers the provider the instrumentations' spans go to. It reads the same snapshot
 * of the environment (config.ts processEnvironment()) the main's config is loaded from.
 */
if (requested()) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  enableInstrumentations();
}

/** A variable it cannot read is left to initTracing(), which names it and stops the start (exit 78). */
function requested(): boolean {
  try {
    return tracingRequested(processEnvironment());
  } catch (err) {
    if (err instanceof ConfigError) return false;
    throw err;
  }
}
