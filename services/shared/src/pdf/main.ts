import { loadLogLevel, processEnvironment } from '../config.js';
import { createLogger } from '../logger.js';
import { loadPdfServerSettings, startPdfServer } from './server.js';

/** The PDF renderer service (infra/docker, image `pdf-renderer`): `node services/shared/dist/pdf/main.js`. */
const env = processEnvironment();
const log = createLogger('pdf-renderer', { level: loadLogLevel(env) });
const server = await startPdfServer(loadPdfServerSettings(env), log);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
