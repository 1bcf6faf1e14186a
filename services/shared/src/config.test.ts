import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, envReader, loadLogLevel, processEnvironment } from './config.js';

describe('envReader', () => {
  it('reads values and defaults', () => {
    const env = envReader({ PORT: '8081', FLAG: 'yes', LIST: 'a, b,,c', MODE: 'kafka', URL: 'postgres://x@h/db' });
    assert.equal(env.port('PORT', 1), 8081);
    assert.equal(env.port('MISSING', 8080), 8080);
    assert.equal(env.bool('FLAG'), true);
    assert.deepEqual(env.list('LIST'), ['a', 'b', 'c']);
    assert.equal(env.oneOf('MODE', ['kafka', 'memory'] as const), 'kafka');
    assert.equal(env.url('URL', ['postgres']), 'postgres://x@h/db');
    assert.equal(env.optionalString('EMPTY'), undefined);
  });

  it('names the bad variable in every failure', () => {
    const env = envReader({ PORT: 'eighty', BIG: '70000', FLAG: 'maybe', MODE: 'x', URL: 'http://h', BAD: '::' });
    const cases: [() => unknown, RegExp][] = [
      [() => env.port('PORT'), /^PORT must be an integer/],
      [() => env.port('BIG'), /^BIG must be at most 65535/],
      [() => env.bool('FLAG'), /^FLAG must be true or false/],
      [() => env.oneOf('MODE', ['a', 'b']), /^MODE must be one of a, b/],
      [() => env.url('URL', ['postgres']), /^URL must use postgres/],
      [() => env.url('BAD', ['http']), /^BAD must be a URL/],
      [() => env.string('NOPE'), /^NOPE is required/],
    ];
    for (const [fn, re] of cases) assert.throws(fn, (e: unknown) => e instanceof ConfigError && re.test(e.message));
  });
});

describe('the process environment and LOG_LEVEL', () => {
  it('reads the environment once: one frozen snapshot, whatever changes process.env later', () => {
    const first = processEnvironment();
    assert.ok(Object.isFrozen(first));
    assert.equal(first['PATH'], process.env['PATH']);
    process.env['GREEN_IMPACT_CONFIG_TEST'] = 'later';
    try {
      assert.equal(processEnvironment(), first);
      assert.equal(processEnvironment()['GREEN_IMPACT_CONFIG_TEST'], undefined);
    } finally {
      delete process.env['GREEN_IMPACT_CONFIG_TEST'];
    }
  });

  it('LOG_LEVEL: info by default, silent under NODE_ENV=test, any pino level, and a name that is none refused', () => {
    assert.equal(loadLogLevel({}), 'info');
    assert.equal(loadLogLevel({ NODE_ENV: 'test' }), 'silent');
    assert.equal(loadLogLevel({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }), 'debug');
    assert.equal(loadLogLevel({ LOG_LEVEL: ' warn ' }), 'warn');
    assert.throws(() => loadLogLevel({ LOG_LEVEL: 'verbose' }), (e: unknown) => e instanceof ConfigError && /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/.test(e.message));
  });
});
