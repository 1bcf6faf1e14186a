import { pino, type Logger, type LoggerOptions } from 'pino';
import { traceLogFields } from './tracing/tracer.js';

export type { Logger };

/**
 * One logger for the whole system. PII never reaches the log: request bodies are not logged, and the
 * fields that could carry keys or personal data are redacted defensively.
 */
export function createLogger(name: string, options: LoggerOptions = {}): Logger {
  return pino({
    name,
    level: process.env['LOG_LEVEL'] ?? (process.env['NODE_ENV'] === 'test' ? 'silent' : 'info'),
    redact: {
      paths: [
        '*.api_key', '*.apiKey', '*.encryption_key', '*.decryption_key', '*.password',
        'req.headers["x-api-key"]', 'headers["x-api-key"]', '*.user_email', '*.investor_name',
      ],
      censor: '[redacted]',
    },
    base: { service: name },
    mixin: traceLogFields,
    ...options,
  });
}
