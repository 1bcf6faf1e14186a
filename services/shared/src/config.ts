/**
 * Environment configuration, validated once at start. Each reader names the variable it reads so a bad
 * value fails fast with a message an operator can act on.
 *
 * This is the one module that reads `process.env` (test/src/config-reads.test.ts fails on a read anywhere
 * else): each process's main takes processEnvironment() once, hands it to its loader (gateway/src/config.ts,
 * embedded/src/config.ts, the service's `create`), and passes the typed values on as parameters.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

let snapshot: Env | undefined;

/**
 * This process's environment, copied once (at its first call) and frozen: every loader of the process reads
 * the same values, and a later change to `process.env` (by a library, say) changes no setting.
 */
export function processEnvironment(): Env {
  return (snapshot ??= Object.freeze({ ...process.env }));
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL: pino's levels; default `info`, `silent` under NODE_ENV=test. */
export function loadLogLevel(env: Env): LogLevel {
  const read = envReader(env);
  return read.oneOf('LOG_LEVEL', LOG_LEVELS, read.string('NODE_ENV', 'development') === 'test' ? 'silent' : 'info');
}

/**
 * The level of a logger made without one (createLogger in test support, which has no main): LOG_LEVEL of
 * this process's environment, or `info` when LOG_LEVEL names no level (a main refuses that at start).
 */
export function defaultLogLevel(): LogLevel {
  try {
    return loadLogLevel(processEnvironment());
  } catch (err) {
    if (err instanceof ConfigError) return 'info';
    throw err;
  }
}

export interface EnvReader {
  string(name: string, fallback?: string): string;
  optionalString(name: string): string | undefined;
  int(name: string, fallback?: number, range?: { min?: number; max?: number }): number;
  port(name: string, fallback?: number): number;
  bool(name: string, fallback?: boolean): boolean;
  oneOf<T extends string>(name: string, values: readonly T[], fallback?: T): T;
  url(name: string, protocols: readonly string[]): string | undefined;
  list(name: string): string[];
}

export function envReader(env: Env): EnvReader {
  const raw = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const reader: EnvReader = {
    string(name, fallback) {
      const v = raw(name) ?? fallback;
      if (v === undefined) throw new ConfigError(`${name} is required but not set.`);
      return v;
    },
    optionalString: (name) => raw(name),
    int(name, fallback, range = {}) {
      const v = raw(name);
      if (v === undefined) {
        if (fallback === undefined) throw new ConfigError(`${name} is required but not set.`);
        return fallback;
      }
      if (!/^-?\d+$/.test(v)) throw new ConfigError(`${name} must be an integer, got "${v}".`);
      const n = Number(v);
      if (range.min !== undefined && n < range.min) throw new ConfigError(`${name} must be at least ${range.min}, got ${n}.`);
      if (range.max !== undefined && n > range.max) throw new ConfigError(`${name} must be at most ${range.max}, got ${n}.`);
      return n;
    },
    port(name, fallback) {
      return reader.int(name, fallback, { min: 0, max: 65535 });
    },
    bool(name, fallback = false) {
      const v = raw(name);
      if (v === undefined) return fallback;
      if (/^(1|true|yes|on)$/i.test(v)) return true;
      if (/^(0|false|no|off)$/i.test(v)) return false;
      throw new ConfigError(`${name} must be true or false, got "${v}".`);
    },
    oneOf(name, values, fallback) {
      const v = raw(name) ?? fallback;
      if (v === undefined) throw new ConfigError(`${name} is required; one of ${values.join(', ')}.`);
      if (!values.includes(v as never)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${v}".`);
      return v as (typeof values)[number];
    },
    url(name, protocols) {
      const v = raw(name);
      if (v === undefined) return undefined;
      let parsed: URL;
      try {
        parsed = new URL(v);
      } catch {
        throw new ConfigError(`${name} must be a URL, got a value that does not parse.`);
      }
      if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}".`);
      }
      return v;
    },
    list(name) {
      const v = raw(name);
      return v === undefined ? [] : v.split(',').map((s) => s.trim()).filter(Boolean);
    },
  };
  return reader;
}

/** A standalone service's database (DATABASE_URL, DATABASE_POOL_SIZE; docs/configuration.md). */
export interface ServiceDatabaseSettings {
  databaseUrl: string;
  /** Connections of this process's pool. */
  poolSize: number;
  /**
   * MIGRATIONS: `apply` pending migrations at start (default), or only `check` the schema's version
   * (Kubernetes: the Job migrates), or `allow-newer` (as check; a newer schema is served: rollbacks).
   */
  migrate: 'apply' | 'check' | 'allow-newer';
}

export function serviceDatabase(env: EnvReader): ServiceDatabaseSettings {
  return {
    databaseUrl: env.string('DATABASE_URL'),
    poolSize: env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
    migrate: env.oneOf('MIGRATIONS', ['apply', 'check', 'allow-newer'] as const, 'apply'),
  };
}

/** Bounds of the account-owned listings and publications (taxonomy and portfolio; docs/configuration.md). */
export interface ListingLimits {
  /** MAX_LIST_ITEMS: items an unpaged listing answers at most (/v1/call's lists). */
  maxListItems: number;
  /** MAX_PUBLIC_ITEMS_PER_ACCOUNT: public items of one kind (frameworks, projects, assets) per account. */
  maxPublicItemsPerAccount: number;
}

export const DEFAULT_LISTING_LIMITS: ListingLimits = { maxListItems: 2_000, maxPublicItemsPerAccount: 1_000 };

export function listingLimits(env: EnvReader): ListingLimits {
  return {
    // At most 50,000: an unpaged answer travels in one gRPC message (4 MiB by default).
    maxListItems: env.int('MAX_LIST_ITEMS', DEFAULT_LISTING_LIMITS.maxListItems, { min: 1, max: 50_000 }),
    maxPublicItemsPerAccount: env.int('MAX_PUBLIC_ITEMS_PER_ACCOUNT', DEFAULT_LISTING_LIMITS.maxPublicItemsPerAccount, { min: 0, max: 1_000_000 }),
  };
}
