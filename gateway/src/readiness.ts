import { Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import type { Backend } from './clients.js';

const check = healthService['Check']!;

/** SERVING and NOT_SERVING/UNKNOWN/SERVICE_UNKNOWN come from the backend; UNREACHABLE means no answer. */
export type BackendStatus = 'SERVING' | 'NOT_SERVING' | 'UNKNOWN' | 'SERVICE_UNKNOWN' | 'UNREACHABLE';

/** Asks a backend's standard health service (grpc.health.v1.Health/Check) for its overall status. */
export function checkBackend(channel: Client, timeoutMs: number): Promise<BackendStatus> {
  return new Promise((resolve) => {
    channel.makeUnaryRequest(
      check.path,
      check.requestSerialize,
      check.responseDeserialize,
      { service: '' },
      new Metadata(),
      { deadline: Date.now() + timeoutMs },
      (err: ServiceError | null, response?: unknown) => {
        if (err) return resolve('UNREACHABLE');
        const status = (response as { status?: unknown } | undefined)?.status;
        resolve(typeof status === 'string' ? (status as BackendStatus) : 'UNKNOWN');
      },
    );
  });
}

export interface Readiness {
  ready: boolean;
  backends: Record<string, BackendStatus>;
}

/** Ready when every configured backend answers SERVING. */
export async function checkReadiness(backends: readonly Backend[], timeoutMs: number): Promise<Readiness> {
  const statuses = await Promise.all(backends.map((b) => checkBackend(b.channel, timeoutMs)));
  const entries = backends.map((b, i) => [b.name, statuses[i]!] as const);
  return { ready: statuses.every((s) => s === 'SERVING'), backends: Object.fromEntries(entries) };
}
