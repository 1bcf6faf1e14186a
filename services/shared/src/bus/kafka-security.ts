import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ConfigError, type EnvReader } from '../config.js';

/** TLS and SASL of the Kafka connections, as kafkajs takes them; empty for a plaintext cluster. */
export interface KafkaSecurity {
  ssl?: ConnectionOptions;
  sasl?: SASLOptions;
}

const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/**
 * Managed Kafka (MSK, Confluent Cloud, Aiven, Event Streams …) speaks TLS and authenticates with SASL:
 * `KAFKA_SSL` (true/false), `KAFKA_SSL_CA_FILE` (PEM bundle; the system's CAs otherwise),
 * `KAFKA_SSL_CERT_FILE` + `KAFKA_SSL_KEY_FILE` (mutual TLS), `KAFKA_SASL_MECHANISM` (plain, scram-sha-256,
 * scram-sha-512), `KAFKA_SASL_USERNAME`, `KAFKA_SASL_PASSWORD`. Checked at start: a file that cannot be read,
 * half a pair, credentials without a mechanism, or PLAIN without TLS (the password would cross the network
 * in clear) stop the process with the variable's name.
 */
export function kafkaSecurityFromEnv(env: EnvReader): KafkaSecurity {
  const security: KafkaSecurity = {};
  const caFile = env.optionalString('KAFKA_SSL_CA_FILE');
  const certFile = env.optionalString('KAFKA_SSL_CERT_FILE');
  const keyFile = env.optionalString('KAFKA_SSL_KEY_FILE');
  const ssl = env.bool('KAFKA_SSL', caFile !== undefined || certFile !== undefined);
  if (!ssl && (caFile ?? certFile ?? keyFile) !== undefined) {
    throw new ConfigError('KAFKA_SSL_CA_FILE, KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE need KAFKA_SSL=true.');
  }
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together (mutual TLS): set both or neither.');
  }
  if (ssl) {
    security.ssl = {
      ...(caFile !== undefined ? { ca: [pem('KAFKA_SSL_CA_FILE', caFile)] } : {}),
      ...(certFile !== undefined && keyFile !== undefined ? { cert: pem('KAFKA_SSL_CERT_FILE', certFile), key: pem('KAFKA_SSL_KEY_FILE', keyFile) } : {}),
    };
  }
  const mechanism = env.optionalString('KAFKA_SASL_MECHANISM')?.toLowerCase();
  const username = env.optionalString('KAFKA_SASL_USERNAME');
  const password = env.optionalString('KAFKA_SASL_PASSWORD');
  if (mechanism === undefined) {
    if (username !== undefined || password !== undefined) {
      throw new ConfigError(`KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD need KAFKA_SASL_MECHANISM (${MECHANISMS.join(', ')}).`);
    }
    return security;
  }
  if (!(MECHANISMS as readonly string[]).includes(mechanism)) {
    throw new ConfigError(`KAFKA_SASL_MECHANISM must be one of ${MECHANISMS.join(', ')}; got "${mechanism}".`);
  }
  if (username === undefined || password === undefined) {
    throw new ConfigError(`KAFKA_SASL_MECHANISM=${mechanism} needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD.`);
  }
  if (mechanism === 'plain' && !ssl) {
    throw new ConfigError('KAFKA_SASL_MECHANISM=plain sends the password in clear: it needs KAFKA_SSL=true (or use scram-sha-256/512).');
  }
  security.sasl = { mechanism: mechanism as (typeof MECHANISMS)[number], username, password } as SASLOptions;
  return security;
}

function pem(name: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  if (!text.includes('-----BEGIN ')) throw new ConfigError(`${name}: ${file} holds no PEM block.`);
  return text;
}
