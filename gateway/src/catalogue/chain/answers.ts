import { z } from 'zod';
import { frameworkSummaryAnswer } from '../../generated/taxonomy.js';
import {
  answer,
  changed,
  currencyCode,
  examplePath,
  exampleRowFields,
  exampleSummary,
  goalMap,
  id,
  isoDate,
  shared,
  taxonomyPathFields,
  timestamp,
  year,
  yesNo,
  type Answers,
} from '../answer-shapes.js';

/**
 * 200 answers of the chain operations: the blockchain operations of SVC.ESG.Credits (§4.2), the
 * key-value jobs of SVC.Blockchain.Hash (§4.12) and the NFTs of SVC.NFT.zK (§4.13, §2.10). Jobs answer
 * at once with `{statusCode, statusMessage, info: {jobId}}`; `fetch` reads a job's outcome, every key
 * present and null until the job has it (docs/api-operations.md).
 */

const JOB_ID = '5f0c2b7e-8d4a-4c1e-9b3f-6a2d7e9c1f08';
const TX = '0x9a4e1f0c7b3d25e8a6f1c0d9b8e7a6f5c4d3b2a1908f7e6d5c4b3a29180f7e6d';
const BLOCK = '0x3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d';
const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** getDocumentProof (not in the spec): the proof format of docs/chain.md "Proofs", and the check made now. */
const documentProofAnswer = shared(
  'DocumentProofAnswer',
  z.strictObject({
    job_id: z.string(),
    verified: z.boolean(),
    /** Present when not verified: why not (docs/chain.md "Trust anchor"). */
    reason: z.string().optional(),
    proof: z
      .strictObject({
        format: z.literal('greenimpact-document-proof/1'),
        method: z.enum(['merkle', 'anchor']),
        documentSha256: z.string(),
        cid: z.string(),
        anchorId: z.string(),
        leaf: z.string(),
        path: z.array(z.string()),
        root: z.string(),
        network: z.string(),
        chainId: z.number().int(),
        contract: z.string(),
        transaction: z.string(),
        blockNumber: z.number().int(),
      })
      .nullable(),
  }),
);

/** The answer of a job-creating call: the job is queued, its id in `info.jobId` (§4.12). */
export const jobAccepted = shared(
  'JobAccepted',
  z.strictObject({ statusCode: z.literal(200), statusMessage: z.literal(''), info: z.strictObject({ jobId: z.string().min(1) }) }),
);
/** The four document writes of §4.2: the job answer plus `job_id` at the top level. */
const writeAccepted = shared(
  'DocumentWriteAccepted',
  z.strictObject({
    statusCode: z.literal(200),
    statusMessage: z.literal(''),
    info: z.strictObject({ jobId: z.string().min(1) }),
    job_id: z.string().min(1),
  }),
);

const log = z.strictObject({
  _type: z.string(),
  address: z.string(),
  blockHash: z.string(),
  blockNumber: z.int().min(0),
  data: z.string(),
  index: z.int().min(0),
  topics: z.array(z.string()),
  transactionHash: z.string(),
  transactionIndex: z.int().min(0),
});
/** ethers v6's TransactionReceipt as the spec shows it (`_type`, camelCase; absent addresses null). */
const receipt = shared(
  'TransactionReceipt',
  z.strictObject({
    _type: z.string(),
    blockHash: z.string(),
    blockNumber: z.int().min(0),
    contractAddress: z.string().nullable(),
    cumulativeGasUsed: z.string().regex(/^\d+$/),
    from: z.string(),
    gasPrice: z.string().regex(/^\d+$/),
    gasUsed: z.string().regex(/^\d+$/),
    hash: z.string(),
    index: z.int().min(0),
    logs: z.array(log),
    logsBloom: z.string(),
    status: z.int(),
    to: z.string().nullable(),
  }),
);
const jsonObject = z.record(z.string(), z.unknown());
/**
 * A job's outcome (spec §4.13's fetch result). The certificate keys are a mint's (SVC.NFT.zK `new`): an
 * NFT fetch of a mint shows them null until the NFT is made; other jobs leave them out. `error` only when
 * the job failed.
 */
const fetchAnswer = shared(
  'JobFetch',
  z.strictObject({
    statusCode: z.literal(200),
    statusMessage: z.string().meta({ description: 'Empty, or why the job failed.' }),
    info: z.strictObject({
      status: z.strictObject({ Value: z.enum(['queued', 'submitted', 'completed', 'failed']) }),
      request: jsonObject.nullable(),
      result: jsonObject.nullable(),
      hash: z.string().nullable(),
      txnUrl: z.string().nullable(),
      receipt: receipt.nullable(),
      networkCost: z.number().nullable(),
      networkFee: z.number().nullable(),
      networkTotal: z.number().nullable(),
      certificateOfTrust: z.string().nullable().optional(),
      certificateOfTrustJPG: z.string().nullable().optional(),
      certificateOfTrustUrl: z.string().nullable().optional(),
      guid: z.string(),
      type: z.strictObject({ value: z.literal('blockchain-job') }),
      timestampInMillis: z.int().min(0),
      error: z.string().optional(),
    }),
  }),
);
const jobList = z.array(z.strictObject({ id: id(), job_id: z.string().min(1) }));

/** The framework document as written (JSON kind): the framework detail form and what it was rendered for. */
const frameworkDocument = z.strictObject({
  document: z.literal('framework'),
  document_version: z.int().min(1),
  reporting_year: year(),
  language_code: z.string().nullable(),
  decimals: z.int().min(0),
  sdg_goals_included: yesNo(),
  eu_objectives_included: yesNo(),
  ...frameworkSummaryAnswer.shape,
  framework: z.array(
    z.strictObject({
      ...taxonomyPathFields,
      sub_category_volume: z.number(),
      framework_currency_code: currencyCode(),
      indicator_value: z.number(),
      year: year(),
      sdg: goalMap.optional(),
      eu_objective: goalMap.optional(),
      language: z.string(),
    }),
  ),
});

/** The position impacts document as written (JSON kind); the investor only when it was to be written. */
const positionImpactsDocument = z.strictObject({
  document: z.literal('position_impacts'),
  document_version: z.int().min(1),
  reporting_year: year(),
  language_code: z.string().optional(),
  decimals: z.int().min(0),
  position: z.strictObject({
    position_id: id(),
    position_amount: z.number(),
    position_currency_code: currencyCode(),
    position_days: z.int(),
    position_start_date: isoDate().nullable(),
  }),
  investor: z
    .strictObject({ investor_identifier: z.string(), investor_name: z.string().optional(), investor_email: z.string().optional() })
    .optional(),
  asset: z.strictObject({
    asset_identifier: z.string(),
    asset_name: z.string(),
    issuer_identifier: z.string(),
    issuer_name: z.string(),
    asset_currency_code: currencyCode(),
    asset_value_outstanding: z.number().nullable(),
    asset_date_issued: isoDate().nullable(),
    asset_date_maturity: isoDate().nullable(),
  }),
  framework: z.strictObject({
    framework_identifier: z.string(),
    framework_name: z.string(),
    framework_currency_code: currencyCode(),
    framework_value_outstanding: z.number(),
    framework_allocated_amount: z.number(),
    value_outstanding_framework: yesNo(),
  }),
  attribution: z.strictObject({
    formula: z.string(),
    fx_rate: z.number(),
    position_amount_framework_currency: z.number(),
    attribution_denominator: z.number(),
    attribution_share: z.number(),
    holding_start: isoDate(),
    holding_last_day: isoDate(),
    holding_days_in_year: z.int().min(0),
    days_in_year: z.int(),
    tau: z.number(),
    computed_at: timestamp(),
  }),
  impacts: z.array(
    z.strictObject({
      ...taxonomyPathFields,
      indicator_value: z.number(),
      sub_category_volume: z.number(),
      impact: z.number(),
      attributed_volume: z.number(),
      sdg: goalMap.optional(),
      eu_objective: goalMap.optional(),
    }),
  ),
  totals: z.array(z.strictObject({ indicator_id: id(), indicator_name: z.string(), unit_id: id(), unit_name: z.string(), impact: z.number() })),
});

/** getHtml*FromBlockchain: one key, the link text, valued by the signed address of the page. */
const documentLink = (text: string) =>
  z.strictObject({ [text]: z.url().meta({ description: '{jobs_url}/<job_id>.html?v=…&exp=…&sig=…: opens without a key until it expires or is revoked.' }) });
const FRAMEWORK_LINK = 'Framework document on the blockchain';
const IMPACTS_LINK = 'Position impacts document on the blockchain';
const EU_GBS_LINK = 'EU Green Bond Standard document on the blockchain';
const signed = (jobId: string) => `https://impact.example.org/jobs/${jobId}.html?v=1&exp=1767225600&sig=Qm9yZGVyLXNpZ25lZC1saW5r`;

const accepted = { statusCode: 200 as const, statusMessage: '' as const, info: { jobId: JOB_ID } };
const fetched = {
  statusCode: 200 as const,
  statusMessage: '',
  info: {
    status: { Value: 'completed' as const },
    request: { solution: 'SVC.Blockchain.Hash', operation: 'insertString', version: 1, network: 'sepolia', parameters: { key: 'report-2024', value: 'ok' } },
    result: { key: 'report-2024', value: 'ok' },
    hash: TX,
    txnUrl: `https://sepolia.etherscan.io/tx/${TX}`,
    receipt: {
      _type: 'TransactionReceipt',
      blockHash: BLOCK,
      blockNumber: 7_312_455,
      contractAddress: null,
      cumulativeGasUsed: '1893452',
      from: FROM,
      gasPrice: '1500000000',
      gasUsed: '52311',
      hash: TX,
      index: 4,
      logs: [
        {
          _type: 'log',
          address: ADDRESS,
          blockHash: BLOCK,
          blockNumber: 7_312_455,
          data: '0x',
          index: 11,
          topics: ['0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'],
          transactionHash: TX,
          transactionIndex: 4,
        },
      ],
      logsBloom: `0x${'0'.repeat(512)}`,
      status: 1,
      to: ADDRESS,
    },
    networkCost: 0.0000784665,
    networkFee: 0.00001,
    networkTotal: 0.0000884665,
    guid: JOB_ID,
    type: { value: 'blockchain-job' as const },
    timestampInMillis: 1_736_933_400_000,
  },
};

export const blockchainAnswers = {
  getJobStatusFromBlockchain: answer(fetchAnswer, fetched),
  writeHtmlFrameworkToBlockchain: answer(writeAccepted, { ...accepted, job_id: JOB_ID }),
  writeJsonFrameworkToBlockchain: answer(writeAccepted, { ...accepted, job_id: JOB_ID }),
  writeHtmlPositionImpactsToBlockchain: answer(writeAccepted, { ...accepted, job_id: JOB_ID }),
  writeJsonPositionImpactsToBlockchain: answer(writeAccepted, { ...accepted, job_id: JOB_ID }),
  writeEuGbsDocumentToBlockchain: answer(writeAccepted, { ...accepted, job_id: JOB_ID }),
  getEuGbsDocumentFromBlockchain: answer(documentLink(EU_GBS_LINK), { [EU_GBS_LINK]: signed(JOB_ID) }),
  getHtmlFrameworkFromBlockchain: answer(documentLink(FRAMEWORK_LINK), { [FRAMEWORK_LINK]: signed(JOB_ID) }),
  getJsonFrameworkFromBlockchain: answer(frameworkDocument, {
    document: 'framework',
    document_version: 1,
    reporting_year: 2024,
    language_code: 'en',
    decimals: 2,
    sdg_goals_included: 'yes',
    eu_objectives_included: 'yes',
    ...exampleSummary,
    framework: [{ ...exampleRowFields, framework_currency_code: 'EUR' }],
  }),
  getHtmlPositionImpactsFromBlockchain: answer(documentLink(IMPACTS_LINK), { [IMPACTS_LINK]: signed(JOB_ID) }),
  getJsonPositionImpactsFromBlockchain: answer(positionImpactsDocument, {
    document: 'position_impacts',
    document_version: 1,
    reporting_year: 2024,
    decimals: 2,
    position: { position_id: 77, position_amount: 100_000, position_currency_code: 'EUR', position_days: 366, position_start_date: '2024-01-01' },
    asset: {
      asset_identifier: 'DE000A3E5XK9',
      asset_name: 'Green bond 2031',
      issuer_identifier: 'NORDBANK',
      issuer_name: 'Nordbank AG',
      asset_currency_code: 'EUR',
      asset_value_outstanding: 500_000_000,
      asset_date_issued: '2024-03-01',
      asset_date_maturity: '2031-03-01',
    },
    framework: {
      framework_identifier: 'GF-2024',
      framework_name: 'Green bond framework 2024',
      framework_currency_code: 'EUR',
      framework_value_outstanding: 500_000_000,
      framework_allocated_amount: 420_000_000,
      value_outstanding_framework: 'yes',
    },
    attribution: {
      formula: 'impact(k,i) = τ · (P_f / D) · x(k,i); attributed_volume(k) = τ · (P_f / D) · s(k)',
      fx_rate: 1,
      position_amount_framework_currency: 100_000,
      attribution_denominator: 500_000_000,
      attribution_share: 0.0002,
      holding_start: '2024-01-01',
      holding_last_day: '2024-12-31',
      holding_days_in_year: 366,
      days_in_year: 366,
      tau: 1,
      computed_at: '2025-01-15T09:30:00.000Z',
    },
    impacts: [
      {
        ...examplePath,
        indicator_value: 85_000,
        sub_category_volume: 120_000_000,
        impact: 17,
        attributed_volume: 24_000,
      },
    ],
    totals: [{ indicator_id: 21, indicator_name: 'Annual electricity generated', unit_id: 2, unit_name: 'MWh', impact: 17 }],
  }),
  getBlockchainJobsForFrameworks: answer(jobList, [{ id: 3, job_id: JOB_ID }]),
  getBlockchainJobsForImpacts: answer(jobList, [{ id: 4, job_id: JOB_ID }]),
  getDocumentProof: answer(documentProofAnswer, {
    job_id: JOB_ID,
    verified: true,
    proof: {
      format: 'greenimpact-document-proof/1',
      method: 'merkle',
      documentSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      cid: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
      anchorId: `0x${JOB_ID.replace(/-/g, '').padEnd(64, '0')}`,
      leaf: TX,
      path: [BLOCK],
      root: TX,
      network: 'sepolia',
      chainId: 11155111,
      contract: ADDRESS,
      transaction: TX,
      blockNumber: 7,
    },
  }),
  revokeDocumentLinks: changed(`The links to the document of job ${JOB_ID} are revoked.`),
} satisfies Answers;

export const hashAnswers = {
  insertString: answer(jobAccepted, accepted),
  selectString: answer(jobAccepted, accepted),
  insertBytes32: answer(jobAccepted, accepted),
  selectBytes32: answer(jobAccepted, accepted),
  fetch: answer(fetchAnswer, fetched),
} satisfies Answers;

/** An NFT (§2.10), key for key; the transfer codes are empty but in the answer of `send`. */
const nft = shared(
  'Nft',
  z.strictObject({
    guid: z.string(),
    network: z.string(),
    nftTxHash: z.string(),
    nftId: z.string(),
    nftIPFSHash: z.string(),
    nftImageIPFSHash: z.string(),
    nftJson: z.strictObject({
      name: z.string(),
      description: z.string(),
      image: z.string(),
      attributes: z.array(
        z.strictObject({
          trait_type: z.string(),
          value: z.unknown().meta({ description: 'Any JSON value, null when none.' }),
          display_type: z.string().optional(),
        }),
      ),
    }),
    url: z.strictObject({ nft: z.string(), image: z.string(), transaction: z.string() }),
    status: z.enum(['minting', 'created', 'transferring', 'transferred', 'emailed']),
    transferCodes: z.strictObject({ owner: z.string(), receiver: z.string() }),
    transferredTo: z.string().optional().meta({ description: 'Present after sending.' }),
    timestamp: z.string().regex(/^\d+$/).meta({ description: 'Milliseconds since 1970, as text (§2.10).' }),
  }),
);
const nftAnswer = <S extends z.ZodType>(info: S) => z.strictObject({ statusCode: z.literal(200), statusMessage: z.literal(''), info });
const NFT_GUID = 'b7e2c4d1-3f6a-4e8b-9c1d-2a5f7e3b8c60';
const anNft = {
  guid: NFT_GUID,
  network: 'sepolia',
  nftTxHash: TX,
  nftId: '42',
  nftIPFSHash: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
  nftImageIPFSHash: 'bafkreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454',
  nftJson: {
    name: 'Solar park Brandenburg 2024',
    description: 'Certificate of the 2024 impacts of a green bond position',
    image: 'ipfs://bafkreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454',
    attributes: [{ trait_type: 'MWh', value: 17, display_type: 'number' }],
  },
  url: {
    nft: 'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    image: 'ipfs://bafkreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454',
    transaction: `https://sepolia.etherscan.io/tx/${TX}`,
  },
  status: 'created' as const,
  transferCodes: { owner: '', receiver: '' },
  timestamp: '1736933400000',
};

export const nftAnswers = {
  new: answer(jobAccepted, accepted),
  list: answer(nftAnswer(z.array(nft)), { statusCode: 200, statusMessage: '', info: [anNft] }),
  transfer: answer(jobAccepted, accepted),
  send: answer(nftAnswer(nft), {
    statusCode: 200,
    statusMessage: '',
    info: {
      ...anNft,
      status: 'emailed',
      transferCodes: { owner: 'o3Jq8yH1wV6kR2mZ5xT9cB4nL7pD0sF3gA6eU1iK8hQ', receiver: 'r5Tm2bX8kW1qN7vC4yH9jD3fL6sP0gZ5aE8uR2iO7nM' },
      transferredTo: 'ann.lee@example.org',
    },
  }),
  fetch: answer(fetchAnswer, {
    ...fetched,
    info: {
      ...fetched.info,
      request: { solution: 'SVC.NFT.zK', operation: 'new', version: 1, network: 'sepolia', parameters: { name: 'Solar park Brandenburg 2024' } },
      result: { nftId: '42', guid: NFT_GUID },
      certificateOfTrust: `https://impact.example.org/nfts/${NFT_GUID}/certificate.pdf`,
      certificateOfTrustJPG: `https://impact.example.org/nfts/${NFT_GUID}/certificate.jpg`,
      certificateOfTrustUrl: `https://impact.example.org/nfts/${NFT_GUID}`,
      guid: NFT_GUID,
    },
  }),
  claim: answer(jobAccepted, accepted),
  revoke: answer(nftAnswer(nft), { statusCode: 200, statusMessage: '', info: anNft }),
} satisfies Answers;
