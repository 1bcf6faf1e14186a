import type { Caller } from '@green-impact/shared/caller';
import type { JobRow } from '../jobs/entities.js';
import type { JobStore } from '../jobs/job-store.js';
import type { KeyValuePayload } from '../jobs/job-types.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import { accountNamespace, bytes32Value, validKey, validStringValue } from './key-value-rules.js';

export type KeyValueOperation = 'insertString' | 'selectString' | 'insertBytes32' | 'selectBytes32';

const KINDS = {
  insertString: 'kv_insert_string',
  selectString: 'kv_select_string',
  insertBytes32: 'kv_insert_bytes32',
  selectBytes32: 'kv_select_bytes32',
} as const;

export interface KeyValueRequest {
  network: string;
  key: string;
  value?: string | undefined;
  idempotencyKey?: string | undefined;
  requestEcho?: Record<string, unknown> | undefined;
}

/** Queues the key-value jobs of spec §4.12, validating the limits of §8 first. */
export class KeyValueJobs {
  constructor(
    private readonly store: JobStore,
    private readonly networks: NetworkRegistry,
  ) {}

  async submit(caller: Caller, op: KeyValueOperation, req: KeyValueRequest): Promise<{ job: JobRow; replayed: boolean }> {
    const named = this.networks.resolve(req.network);
    const key = validKey(req.key);
    const payload: KeyValuePayload = { key, namespace: accountNamespace(caller.accountId) };
    if (op === 'insertString') payload.value = validStringValue(req.value ?? '', named.name, named.network.tuning.maxStringValueBytes);
    if (op === 'insertBytes32') {
      payload.valueHex = bytes32Value(req.value ?? '');
      payload.value = req.value ?? '';
    }
    const echo = req.requestEcho && Object.keys(req.requestEcho).length > 0
      ? req.requestEcho
      : { network: named.name, operation: op, key, ...(payload.value !== undefined ? { value: payload.value } : {}) };
    return this.store.create({
      caller,
      kind: KINDS[op],
      network: named.name,
      chainNetwork: named.aliasOf ?? named.name,
      signer: named.network.signerAddress,
      request: echo,
      payload: payload as unknown as Record<string, unknown>,
      fingerprint: { op, network: named.name, key, value: payload.value ?? null },
      idempotencyKey: req.idempotencyKey,
      subject: { kvKey: key },
    });
  }
}
