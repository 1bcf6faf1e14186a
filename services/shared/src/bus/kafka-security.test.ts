import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { ConfigError, envReader } from '../config.js';
import { KafkaBus } from './kafka-bus.js';
import { kafkaSecurityFromEnv } from './kafka-security.js';

const dir = mkdtempSync(join(tmpdir(), 'kafka-tls-'));
const CERT = join(dir, 'broker.pem');
const KEY = join(dir, 'broker.key');
// A self-signed certificate for localhost, made here by the machine's openssl (nothing is downloaded).
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', KEY, '-out', CERT], { stdio: 'ignore' });
after(() => rmSync(dir, { recursive: true, force: true }));

const refused = (env: Record<string, string>, message: RegExp) =>
  assert.throws(() => kafkaSecurityFromEnv(envReader(env)), (e: unknown) => e instanceof ConfigError && message.test(e.message), JSON.stringify(env));

describe('KAFKA_SSL* and KAFKA_SASL_* are checked at start', () => {
  it('plaintext without settings; TLS with a CA file and mutual TLS; SASL SCRAM and PLAIN', () => {
    assert.deepEqual(kafkaSecurityFromEnv(envReader({})), {});
    assert.deepEqual(kafkaSecurityFromEnv(envReader({ KAFKA_SSL: 'true' })), { ssl: {} });
    const tlsOnly = kafkaSecurityFromEnv(envReader({ KAFKA_SSL_CA_FILE: CERT, KAFKA_SSL_CERT_FILE: CERT, KAFKA_SSL_KEY_FILE: KEY }));
    assert.match(String(tlsOnly.ssl?.ca), /BEGIN CERTIFICATE/);
    assert.match(String(tlsOnly.ssl?.key), /BEGIN PRIVATE KEY/);
    assert.deepEqual(kafkaSecurityFromEnv(envReader({ KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })), {
      sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' },
    });
    assert.deepEqual(kafkaSecurityFromEnv(envReader({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })), {
      ssl: {},
      sasl: { mechanism: 'plain', username: 'u', password: 'p' },
    });
  });

  it('refuses what cannot work, naming the variable', () => {
    refused({ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }, /^KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512; got "gssapi"/);
    refused({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u' }, /^KAFKA_SASL_MECHANISM=scram-sha-256 needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/);
    refused({ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }, /^KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SASL_MECHANISM/);
    refused({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }, /^KAFKA_SASL_MECHANISM=plain sends the password in clear/);
    refused({ KAFKA_SSL: 'false', KAFKA_SSL_CA_FILE: CERT }, /need KAFKA_SSL=true/);
    refused({ KAFKA_SSL_CERT_FILE: CERT }, /^KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together/);
    refused({ KAFKA_SSL_CA_FILE: join(dir, 'missing.pem') }, /^KAFKA_SSL_CA_FILE: cannot read .*missing\.pem \(ENOENT\)/);
    writeFileSync(join(dir, 'not-pem.txt'), 'hello');
    refused({ KAFKA_SSL_CA_FILE: join(dir, 'not-pem.txt') }, /^KAFKA_SSL_CA_FILE: .* holds no PEM block/);
    refused({ KAFKA_SSL: 'maybe' }, /^KAFKA_SSL/);
  });
});

/**
 * librdkafka's mock cluster (rdkafka_mock.h) offers no TLS or SASL, so the handshake is shown against a TLS
 * listener standing in for a broker: the bus connects over TLS, verifies the broker's certificate against
 * KAFKA_SSL_CA_FILE and sends its first Kafka request (ApiVersions, api key 18) inside the tunnel.
 */
describe('the Kafka bus connects over TLS with the configured CA', () => {
  let broker: tls.Server;
  let port: number;
  const firstApiKeys: number[] = [];
  let clientErrors = 0;
  before(async () => {
    broker = tls.createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, (socket) => {
      socket.once('data', (b: Buffer) => {
        firstApiKeys.push(b.readInt16BE(4)); // size (int32), then the request header's api key (int16)
        socket.destroy();
      });
    });
    broker.on('tlsClientError', () => clientErrors++);
    await new Promise<void>((r) => broker.listen(0, '127.0.0.1', r));
    port = (broker.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => broker.close(() => r())));

  const publishOnce = async (env: Record<string, string>) => {
    const bus = new KafkaBus({ brokers: [`localhost:${port}`], clientId: 'tls-test', security: kafkaSecurityFromEnv(envReader(env)) });
    await assert.rejects(bus.publish('t', [{ value: Buffer.from('x') }])); // the stand-in answers nothing
    await bus.close();
  };

  it('trusts the broker signed by KAFKA_SSL_CA_FILE and speaks Kafka inside TLS', async () => {
    await publishOnce({ KAFKA_SSL_CA_FILE: CERT, KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' });
    assert.ok(firstApiKeys.length > 0, 'no request reached the broker over TLS');
    assert.ok(firstApiKeys.every((k) => k === 18), `first requests: ${firstApiKeys.join(', ')}`);
  });

  it('refuses a broker whose certificate the system CAs do not sign', async () => {
    firstApiKeys.length = 0;
    clientErrors = 0;
    await publishOnce({ KAFKA_SSL: 'true' });
    assert.deepEqual(firstApiKeys, [], 'nothing is sent to an unverified broker');
    assert.ok(clientErrors > 0);
  });
});
