import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { defaultLogLevel } from './config.js';
import { redactLogArguments, redactLogRecord, serializeError } from './log-redaction.js';
import { traceLogFields } from './tracing/tracer.js';

export type { Logger };

/**
 * One logger for the whole system. PII never reaches the log: request bodies are not logged, and
 * defensively every field named like a key, secret, code or personal datum is censored at any depth,
 * and every e-mail address in any text, the message included (log-redaction.ts).
 * A process's main passes the level its config read (`options.level`, LOG_LEVEL: config.ts loadLogLevel).
 */
export function createLogger(name: string, options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = {
    name,
    level: options.level ?? defaultLogLevel(),
    base: { service: name },
    mixin: traceLogFields,
    ...options,
    // After the options: no caller turns redaction off by passing formatters of its own.
    formatters: { ...options.formatters, log: (record) => redactLogRecord(record), bindings: (bindings) => redactLogRecord(bindings) },
    serializers: { ...options.serializers, err: serializeError },
    hooks: {
      ...options.hooks,
      logMethod(args, method, level) {
        const redacted = redactLogArguments(args) as Parameters<typeof method>;
        if (options.hooks?.logMethod) options.hooks.logMethod.call(this, redacted, method, level);
        else method.apply(this, redacted);
      },
    },
  };
  const logger = destination ? pino(settings, destination) : pino(settings);
  // pino formats only the root's bindings; a child's (requestId, operation, …) are checked here. Children
  // are made from their parent's prototype, so every descendant inherits this.
  const child = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, opts) {
    return child.call(this, redactLogRecord(bindings), opts);
  } as typeof logger.child;
  return logger;
}
