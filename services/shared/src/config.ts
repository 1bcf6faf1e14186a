/**
 * Environment configuration, validated once at start. Each reader names the variable it reads so a bad
 * value fails fast with a message an operator can act on.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

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

export function envReader(env: Env = process.env): EnvReader {
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
