import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import * as input from './inputs.js';
import { OWNED_MSG } from './messages.js';
import { accountOf } from './owned.js';

/**
 * Which assets of other accounts refer to a framework (issue 46). Assets live in the portfolio service,
 * which this service cannot read, so the portfolio service records each reference here
 * (RecordFrameworkHolder, docs/decisions.md "Holders keep a public framework's currency"): before an asset
 * is written, the framework it is about to refer to; after the write committed, the one it refers to now
 * (dropping the others). A reference to the caller's own framework is not kept: only other accounts'
 * impacts are at stake.
 */
export class FrameworkHolderStore {
  constructor(private readonly ds: DataSource) {}

  async record(caller: Caller, assetIdentifier: string, frameworkId: number, exclusive: boolean): Promise<void> {
    const account = accountOf(caller);
    const asset = input.identifier('asset_identifier', assetIdentifier);
    const id = Number(frameworkId);
    if (!Number.isSafeInteger(id) || id < 0) throw new InvalidArgumentError('framework_id must be a framework id, or 0 for none.', { field: 'framework_id' });
    await this.ds.transaction(async (m) => {
      if (exclusive) {
        await m.query(`DELETE FROM taxonomy.framework_holders WHERE account_id = $1 AND asset_identifier = $2 AND framework_id <> $3`, [account, asset, id]);
      }
      if (id === 0) return;
      // The foreign key's check locks the framework's row (KEY SHARE) until this commits, so a currency
      // change (which locks it FOR UPDATE before it counts holders) is either before this or sees it.
      await m.query(
        `INSERT INTO taxonomy.framework_holders (framework_id, account_id, asset_identifier)
         SELECT f.id, $2, $3 FROM taxonomy.frameworks f WHERE f.id = $1 AND f.account_id <> $2
         ON CONFLICT DO NOTHING`,
        [id, account, asset],
      );
    });
  }
}

/**
 * Refuses changing the currency of the owner's framework `identifier` while other accounts' assets hold
 * it: their impacts are in that currency. Locks the framework's row, so no holder is recorded between
 * this check and the change. Nothing to check for a new framework or an unchanged currency.
 */
export async function keepCurrencyHeldByOthers(m: EntityManager, account: string, identifier: string, currency: string): Promise<void> {
  const rows: { id: number; currencyCode: string; identifier: string }[] = await m.query(
    `SELECT id, currency_code AS "currencyCode", identifier FROM taxonomy.frameworks WHERE account_id = $1 AND identifier = $2 FOR UPDATE`,
    [account, identifier],
  );
  const framework = rows[0];
  if (!framework || framework.currencyCode === currency) return;
  const held: unknown[] = await m.query(`SELECT 1 FROM taxonomy.framework_holders WHERE framework_id = $1 AND account_id <> $2 LIMIT 1`, [framework.id, account]);
  if (held.length) throw new FailedPreconditionError(OWNED_MSG.frameworkCurrencyHeld(framework.identifier, framework.currencyCode));
}
