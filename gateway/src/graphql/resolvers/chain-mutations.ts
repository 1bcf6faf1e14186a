import { chainClient, portfolioClient, taxonomyClient } from '../../clients.js';
import { writeFrameworkDocument, writePositionImpactsDocument, type DocumentWrite } from '../../composition/document-writes.js';
import {
  blockchainParams,
  jobIdParams,
  checkNetworkName,
  renderSettings,
  requestEcho,
  SAVE_OPERATION,
  SAVE_SOLUTION,
} from '../../v1/operations/blockchain-params.js';
import { jobOf } from '../../v1/operations/chain-calls.js';
import { checkBytes32Value, checkKey, hashParams } from '../../v1/operations/hash-params.js';
import { validateParameters, type ParamSpecs } from '../../v1/parameters.js';
import { parseIdempotencyKey } from '../../v1/request-facts.js';
import { callAs, type GraphqlContext } from '../context.js';
import { toGqlJob } from '../chain-objects.js';

/**
 * The blockchain writes on GraphQL (spec §4.2 writes, §4.12): the same composition and rules as /v1/call
 * (composition/document-writes.ts, the hash limits), answering the queued Job. Each resolver
 * authenticates, checks its backends (503 UNAVAILABLE), then validates with messages naming the input
 * fields; `input.idempotencyKey` is the Idempotency-Key of the call.
 */

type Maybe<T> = T | null | undefined;

interface WriteDocumentInput {
  year: number;
  format: 'JSON' | 'HTML';
  network: string;
  decimals?: Maybe<number>;
  sdgGoalsIncluded?: Maybe<boolean>;
  euObjectivesIncluded?: Maybe<boolean>;
  languageCode?: Maybe<string>;
  idempotencyKey?: Maybe<string>;
}
export interface WriteFrameworkDocumentInput extends WriteDocumentInput {
  identifier: string;
}
export interface WritePositionImpactsDocumentInput extends WriteDocumentInput {
  positionId: string;
  writeInvestor?: Maybe<boolean>;
  decryptionKey?: Maybe<string>;
}
export interface KeyValueInput {
  network: string;
  key: string;
  value: string;
  idempotencyKey?: Maybe<string>;
}
export type KeySelectInput = Omit<KeyValueInput, 'value'>;

const b = blockchainParams;
const frameworkWriteParams = {
  framework_identifier: b.frameworkIdentifier,
  reporting_year: b.reportingYear,
  decimals: b.decimals,
  language_code: b.languageCode,
} as const;
const positionWriteParams = {
  position_id: b.positionId,
  reporting_year: b.reportingYear,
  decimals: b.decimals,
  language_code: b.languageCode,
  decryption_key: b.decryptionKey,
} as const;
const labels = {
  framework_identifier: 'input.identifier',
  position_id: 'input.positionId',
  reporting_year: 'input.year',
  decimals: 'input.decimals',
  language_code: 'input.languageCode',
  decryption_key: 'input.decryptionKey',
  key: 'input.key',
  value: 'input.value',
} as const;
const yesNo = (flag: Maybe<boolean>) => (flag ? 'yes' : 'no');
const writeInputOf = (input: WriteDocumentInput) => ({ reporting_year: input.year, decimals: input.decimals, language_code: input.languageCode });

/** The write of validated parameters, its job echoing the call in its legacy /v1/call spelling. */
function documentWrite(
  legacyName: 'Framework' | 'PositionImpacts',
  input: WriteDocumentInput,
  p: { reporting_year: number; decimals?: number | undefined; language_code?: string | undefined } & Record<string, unknown>,
): DocumentWrite {
  const format = input.format === 'JSON' ? 'json' : 'html';
  const network = checkNetworkName(input.network, 'input.network');
  const idempotencyKey = parseIdempotencyKey(input.idempotencyKey, 'input.idempotencyKey');
  const flags = { sdg_goals_included: yesNo(input.sdgGoalsIncluded), eu_objectives_included: yesNo(input.euObjectivesIncluded) } as const;
  const operation = `write${format === 'json' ? 'Json' : 'Html'}${legacyName}ToBlockchain`;
  return {
    format,
    network,
    reportingYear: p.reporting_year,
    render: renderSettings({ ...p, ...flags }),
    idempotencyKey,
    requestEcho: requestEcho('SVC.ESG.Credits', operation, { ...p, solution: SAVE_SOLUTION, operation: SAVE_OPERATION, version: 1, network, ...flags }),
  };
}

/** A key-value job: the same limits as /v1/call, the echo in the Hash solution's legacy form. */
async function keyValue(
  operation: 'insertString' | 'insertBytes32' | 'selectString' | 'selectBytes32',
  input: KeyValueInput | KeySelectInput,
  ctx: GraphqlContext,
) {
  const opts = await callAs(ctx);
  const client = chainClient(ctx.clients);
  const specs: ParamSpecs = operation.startsWith('insert')
    ? { key: hashParams.key, value: operation === 'insertBytes32' ? hashParams.bytes32Value : hashParams.stringValue }
    : { key: hashParams.key };
  const p = validateParameters(specs, { ...input }, labels) as { key: string; value?: string };
  const key = checkKey(p.key, 'input.key');
  if (operation === 'insertBytes32') checkBytes32Value(p.value ?? '', 'input.value');
  const network = checkNetworkName(input.network, 'input.network');
  const req = {
    network,
    key,
    idempotencyKey: parseIdempotencyKey(input.idempotencyKey, 'input.idempotencyKey'),
    requestEcho: requestEcho('SVC.Blockchain.Hash', operation, { key, value: p.value }, { version: 1, network }),
  };
  const value = p.value ?? '';
  const res =
    operation === 'insertString'
      ? await client.insertString({ ...req, value }, opts)
      : operation === 'insertBytes32'
        ? await client.insertBytes32({ ...req, value }, opts)
        : operation === 'selectString'
          ? await client.selectString(req, opts)
          : await client.selectBytes32(req, opts);
  return toGqlJob(jobOf(res), ctx.baseUrl);
}

export const chainMutations = {
  async writeFrameworkDocument(_: unknown, { input }: { input: WriteFrameworkDocumentInput }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    chainClient(ctx.clients);
    taxonomyClient(ctx.clients);
    const p = validateParameters(frameworkWriteParams, { framework_identifier: input.identifier, ...writeInputOf(input) }, labels);
    const job = await writeFrameworkDocument(p.framework_identifier, documentWrite('Framework', input, p), { ...opts, clients: ctx.clients });
    return toGqlJob(job, ctx.baseUrl);
  },
  async writePositionImpactsDocument(_: unknown, { input }: { input: WritePositionImpactsDocumentInput }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    chainClient(ctx.clients);
    portfolioClient(ctx.clients);
    const p = validateParameters(
      positionWriteParams,
      { position_id: input.positionId, decryption_key: input.decryptionKey, ...writeInputOf(input) },
      labels,
    );
    const write = documentWrite('PositionImpacts', input, { ...p, write_investor_to_blockchain: yesNo(input.writeInvestor) });
    const position = { positionId: p.position_id, writeInvestor: input.writeInvestor === true, decryptionKey: p.decryption_key };
    const job = await writePositionImpactsDocument(position, write, { ...opts, clients: ctx.clients });
    return toGqlJob(job, ctx.baseUrl);
  },
  insertString: (_: unknown, { input }: { input: KeyValueInput }, ctx: GraphqlContext) => keyValue('insertString', input, ctx),
  insertBytes32: (_: unknown, { input }: { input: KeyValueInput }, ctx: GraphqlContext) => keyValue('insertBytes32', input, ctx),
  selectString: (_: unknown, { input }: { input: KeySelectInput }, ctx: GraphqlContext) => keyValue('selectString', input, ctx),
  selectBytes32: (_: unknown, { input }: { input: KeySelectInput }, ctx: GraphqlContext) => keyValue('selectBytes32', input, ctx),
  async revokeDocumentLinks(_: unknown, args: { jobId: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const p = validateParameters(jobIdParams, { job_id: args.jobId }, { job_id: 'jobId' });
    return chainClient(ctx.clients).revokeDocumentLinks({ jobId: p.job_id }, opts);
  },
};
