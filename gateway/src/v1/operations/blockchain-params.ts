import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import { DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { ParamsOf } from '../parameters.js';
import { portfolioParams } from './portfolio-params.js';
import { taxonomyParams } from './taxonomy-params.js';

/**
 * Parameter specs of the blockchain operations of SVC.ESG.Credits (spec §4.2) and the pure rules around
 * them, exported so GraphQL validates its arguments by the same rules. The chain service checks again and
 * alone knows which networks exist and whose jobs are whose.
 */

/** The inner solution of the four writes (spec §1: "the `solution` value used inside `parameters`"). */
export const SAVE_SOLUTION = 'SVC.Blockchain.Save';
/** The inner operation of the four writes. */
export const SAVE_OPERATION = 'save';
/** Rendered documents: the taxonomy service accepts 0 to 10 decimals (default 2). */
export const MAX_DECIMALS = 10;

/** A network name as the envelope accepts it (envelope.ts): letters, digits, `.`, `_`, `-`. */
const NETWORK_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export const blockchainParams = {
  reportingYear: taxonomyParams.reportingYear,
  languageCode: taxonomyParams.languageCode,
  frameworkIdentifier: { type: 'identifier', required: true },
  positionId: { type: 'int', required: true, min: 1 },
  investorIdentifier: portfolioParams.investorIdentifier,
  decryptionKey: portfolioParams.decryptionKey,
  /** A job UUID, or the decimal `id` of a getBlockchainJobsFor* entry (the spec's "entry id"). */
  jobId: { type: 'identifier', required: true, maxLength: 64 },
  network: { type: 'identifier', required: true, maxLength: 64 },
  decimals: { type: 'int', min: 0, max: MAX_DECIMALS },
  yesNo: { type: 'yesno' },
} as const;

const b = blockchainParams;

/**
 * The inner parameters every write shares (spec §4.2). `solution`, `operation`, `version` and `network`
 * are the blockchain call the write makes; their values are checked by {@link saveTarget}, which names
 * them `parameters.…` so they are not mistaken for the envelope's fields of the same names.
 */
export const saveParams = {
  solution: { type: 'json', required: true, missingMessage: 'parameters.solution is required.', aliases: ['contract'] },
  operation: { type: 'json', required: true, missingMessage: 'parameters.operation is required.' },
  version: { type: 'json', required: true, missingMessage: 'parameters.version is required.' },
  network: { type: 'json', required: true, missingMessage: 'parameters.network is required.' },
  decimals: b.decimals,
  sdg_goals_included: b.yesNo,
  eu_objectives_included: b.yesNo,
  language_code: b.languageCode,
} as const;

export const writeFrameworkParams = {
  framework_identifier: b.frameworkIdentifier,
  reporting_year: b.reportingYear,
  ...saveParams,
} as const;

export const writePositionImpactsParams = {
  position_id: b.positionId,
  reporting_year: b.reportingYear,
  ...saveParams,
  /** `yes` includes the investor's PII in the document; default `no`. */
  write_investor_to_blockchain: b.yesNo,
  /** Decrypts the investor's PII; the spec's table misspells it depryption_key. */
  decryption_key: b.decryptionKey,
} as const;

export const jobIdParams = { job_id: b.jobId } as const;

export const jobsForFrameworkParams = { framework_identifier: b.frameworkIdentifier } as const;

export const jobsForImpactsParams = { investor_identifier: b.investorIdentifier, position_id: b.positionId } as const;

type SaveParams = ParamsOf<typeof saveParams>;

/** The blockchain call a write makes, after checking the inner solution, operation and version. */
export interface SaveTarget {
  network: string;
  version: 1;
}

/**
 * Checks the inner `solution` (SVC.Blockchain.Save), `operation` (save), `version` (1) and `network` (a
 * network name; whether it exists is the chain service's call) of a write. Exact spellings, as the
 * envelope's solution and operation names are case-sensitive.
 */
export function saveTarget(p: Pick<SaveParams, 'solution' | 'operation' | 'version' | 'network'>): SaveTarget {
  if (p.solution !== SAVE_SOLUTION) {
    throw new InvalidArgumentError(`parameters.solution must be ${SAVE_SOLUTION}.`);
  }
  if (p.operation !== SAVE_OPERATION) {
    throw new InvalidArgumentError(`parameters.operation must be ${SAVE_OPERATION}.`);
  }
  // A number or its text, as the envelope's version (spec §9: "an integer version inside parameters").
  if (p.version !== 1 && p.version !== '1') throw new InvalidArgumentError('parameters.version must be 1.');
  return { network: checkNetworkName(p.network, 'parameters.network'), version: 1 };
}

/** A network name as configured in the chain service (`sepolia`, `amoy`, `mumbai`, …); whether it exists is the service's call. */
export function checkNetworkName(value: unknown, label: string): string {
  if (typeof value !== 'string' || !NETWORK_NAME.test(value)) {
    throw new InvalidArgumentError(`${label} must be a network name such as sepolia.`);
  }
  return value;
}

/** What a document is rendered with besides its format, as both services' render requests take it. */
export interface RenderSettings {
  languageCode?: string | undefined;
  decimals?: number | undefined;
  sdgGoalsIncluded: boolean;
  euObjectivesIncluded: boolean;
}

export type DocumentFamily = 'framework' | 'position_impacts';
export type DocumentFormatName = 'json' | 'html';

/** The render settings of a write's inner parameters (yes/no flags default to no). */
export function renderSettings(p: Pick<SaveParams, 'language_code' | 'decimals' | 'sdg_goals_included' | 'eu_objectives_included'>): RenderSettings {
  return {
    languageCode: p.language_code,
    decimals: p.decimals,
    sdgGoalsIncluded: p.sdg_goals_included === 'yes',
    euObjectivesIncluded: p.eu_objectives_included === 'yes',
  };
}

export function documentFormat(format: DocumentFormatName): DocumentFormat {
  return format === 'json' ? DocumentFormat.DOCUMENT_FORMAT_JSON : DocumentFormat.DOCUMENT_FORMAT_HTML;
}

/** The chain's DocumentKind of a family and format. */
export function documentKind(family: DocumentFamily, format: DocumentFormatName): DocumentKind {
  if (family === 'framework') {
    return format === 'json' ? DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON : DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML;
  }
  return format === 'json' ? DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON : DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML;
}

/** Family and format of a DocumentKind; undefined for UNSPECIFIED (or a kind this gateway does not know). */
export function documentKindParts(kind: DocumentKind | undefined): { family: DocumentFamily; format: DocumentFormatName } | undefined {
  switch (kind) {
    case DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON:
      return { family: 'framework', format: 'json' };
    case DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML:
      return { family: 'framework', format: 'html' };
    case DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON:
      return { family: 'position_impacts', format: 'json' };
    case DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML:
      return { family: 'position_impacts', format: 'html' };
    default:
      return undefined;
  }
}

/** Parameters that must never be echoed into a job's `request` (stored by the chain service, shown by fetch). */
const SECRET_PARAMETERS: ReadonlySet<string> = new Set(['decryption_key', 'encryption_key']);

/**
 * The legacy call as the job's `request` echo (the spec's fetch `info.request`): solution, operation and
 * the validated parameters under their canonical names, without keys. `envelope` adds version and
 * network for the Hash and NFT solutions.
 */
export function requestEcho(
  solution: string,
  operation: string,
  parameters: Readonly<Record<string, unknown>>,
  envelope: { version?: number | undefined; network?: string | undefined } = {},
): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(parameters).filter(([name, value]) => value !== undefined && !SECRET_PARAMETERS.has(name)));
  return {
    solution,
    ...(envelope.version !== undefined ? { version: envelope.version } : {}),
    ...(envelope.network !== undefined ? { network: envelope.network } : {}),
    operation,
    parameters: kept,
  };
}
