import { createLogger } from '@green-impact/shared/logger';
import { loadGatewayConfig } from '../config.js';
import { createGateway, type Gateway } from '../gateway.js';
import { startFakeIdentity, type FakeIdentity } from './fake-identity.js';

export interface TestGateway {
  baseUrl: string;
  gateway: Gateway;
  identity: FakeIdentity;
  stop(): Promise<void>;
}

/** A gateway on a free loopback port in front of the fake identity service, both over real sockets. */
export async function startTestGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  const identity = await startFakeIdentity();
  const config = loadGatewayConfig({
    IDENTITY_GRPC_ADDR: identity.address,
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'test',
    BODY_LIMIT_BYTES: '16384',
    SHUTDOWN_GRACE_MS: '1000',
    ...env,
  });
  const gateway = createGateway({ config, log: createLogger('gateway-test', { level: 'silent' }) });
  const { port } = await gateway.listen();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    gateway,
    identity,
    async stop() {
      await gateway.close();
      await identity.stop();
    },
  };
}

/** POSTs a raw body to /v1/call and returns status, parsed JSON (or text) and headers. */
export async function postCall(
  baseUrl: string,
  body: string | object,
  headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': 'user-key' },
) {
  const res = await fetch(`${baseUrl}/v1/call`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as Record<string, unknown> & unknown[], text, headers: res.headers };
}
