import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, envReader } from '../config.js';
import { eventBusSettingsFromEnv } from './create-bus.js';

describe('eventBusSettingsFromEnv', () => {
  it('selects the in-process bus without brokers and keeps kafkajs defaults', () => {
    assert.deepEqual(eventBusSettingsFromEnv(envReader({})), { kafkaBrokers: [], idempotent: true, consumer: {}, security: {} });
  });

  it('reads brokers, idempotence and consumer timings', () => {
    const env = envReader({
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      KAFKA_IDEMPOTENT: 'false',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '500',
      KAFKA_MAX_WAIT_MS: '100',
    });
    assert.deepEqual(eventBusSettingsFromEnv(env), {
      kafkaBrokers: ['k1:9092', 'k2:9092'],
      idempotent: false,
      consumer: { sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, maxWaitTimeMs: 100 },
      security: {},
    });
  });

  it('names a malformed setting', () => {
    assert.throws(
      () => eventBusSettingsFromEnv(envReader({ KAFKA_SESSION_TIMEOUT_MS: '6s' })),
      (e: unknown) => e instanceof ConfigError && /^KAFKA_SESSION_TIMEOUT_MS must be an integer/.test(e.message),
    );
    assert.throws(() => eventBusSettingsFromEnv(envReader({ KAFKA_IDEMPOTENT: 'perhaps' })), /^ConfigError: KAFKA_IDEMPOTENT/);
  });
});
