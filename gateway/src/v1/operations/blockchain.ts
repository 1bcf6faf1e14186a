import { writeFrameworkDocument, writePositionImpactsDocument, type DocumentWrite } from '../../composition/document-writes.js';
import { defineOperation, type OperationContext } from '../operation.js';
import type { ParamsOf } from '../parameters.js';
import {
  jobIdParams,
  jobsForFrameworkParams,
  jobsForImpactsParams,
  renderSettings,
  requestEcho,
  saveTarget,
  writeFrameworkParams,
  writePositionImpactsParams,
  type DocumentFamily,
  type DocumentFormatName,
} from './blockchain-params.js';
import { documentLink, fetchAnswer, jobListEntry, jsonDocument, requireVerifiedDocument, signedPageUrl, writeAccepted } from './blockchain-shapes.js';
import { chain, jobOf } from './chain-calls.js';
import { call } from './taxonomy.js';
import { listed } from '../truncation.js';

/**
 * /v1/call blockchain operations of SVC.ESG.Credits (spec §4.2). A write renders the document
 * (TaxonomyService.RenderFrameworkDocument / PortfolioService.RenderPositionImpactsDocument) and hands it to
 * ChainService.SubmitDocument, which queues the job that stores it by CID and anchors sha256 + CID on the
 * chain; it answers the job id at once. Reads go through ChainService.GetDocument, which re-reads the
 * anchor and verifies the content: nothing unverified is ever answered.
 */

const ESG = 'SVC.ESG.Credits';

/** The document write of a validated write call: format, network, year, render settings, key and echo. */
function documentWrite(
  operation: string,
  format: DocumentFormatName,
  p: ParamsOf<typeof writeFrameworkParams> | ParamsOf<typeof writePositionImpactsParams>,
  ctx: OperationContext,
): DocumentWrite {
  const { network } = saveTarget(p);
  return {
    format,
    network,
    reportingYear: p.reporting_year,
    render: renderSettings(p),
    idempotencyKey: ctx.http.idempotencyKey,
    requestEcho: requestEcho(ESG, operation, p),
  };
}

function writeFramework(operation: string, format: DocumentFormatName) {
  return defineOperation({
    solution: ESG,
    operation,
    params: writeFrameworkParams,
    async handler(p, ctx) {
      const job = await writeFrameworkDocument(p.framework_identifier, documentWrite(operation, format, p, ctx), ctx);
      return writeAccepted(job.id);
    },
  });
}

function writePositionImpacts(operation: string, format: DocumentFormatName) {
  return defineOperation({
    solution: ESG,
    operation,
    params: writePositionImpactsParams,
    async handler(p, ctx) {
      const position = { positionId: p.position_id, writeInvestor: p.write_investor_to_blockchain === 'yes', decryptionKey: p.decryption_key };
      const job = await writePositionImpactsDocument(position, documentWrite(operation, format, p, ctx), ctx);
      return writeAccepted(job.id);
    },
  });
}

async function readDocument(p: ParamsOf<typeof jobIdParams>, ctx: OperationContext, family: DocumentFamily, format: DocumentFormatName) {
  const doc = await chain(ctx).getDocument({ jobId: p.job_id }, call(ctx));
  return requireVerifiedDocument(doc, { family, format });
}

function readJson(operation: string, family: DocumentFamily) {
  return defineOperation({
    // Not shown in the spec: the verified document as written (docs/api-operations.md).
    solution: ESG,
    operation,
    params: jobIdParams,
    async handler(p, ctx) {
      return jsonDocument(await readDocument(p, ctx, family, 'json'));
    },
  });
}

function readHtmlLink(operation: string, family: DocumentFamily) {
  return defineOperation({
    // `{"<link text>": "{jobs_url}/<job_id>.html?v=…&exp=…&sig=…"}`, once the document verified: the link
    // serves what was checked, in a browser without a key, until it expires or is revoked.
    solution: ESG,
    operation,
    params: jobIdParams,
    async handler(p, ctx) {
      const doc = await readDocument(p, ctx, family, 'html');
      return documentLink(family, signedPageUrl(ctx.documentLinks, ctx.http.baseUrl, doc));
    },
  });
}

export const blockchainOperations = [
  defineOperation({
    // Not shown in the spec: the `fetch` answer of the job (docs/api-operations.md).
    solution: ESG,
    operation: 'getJobStatusFromBlockchain',
    params: jobIdParams,
    async handler(p, ctx) {
      return fetchAnswer(jobOf(await chain(ctx).getJob({ jobId: p.job_id }, call(ctx))));
    },
  }),
  writeFramework('writeHtmlFrameworkToBlockchain', 'html'),
  writeFramework('writeJsonFrameworkToBlockchain', 'json'),
  writePositionImpacts('writeHtmlPositionImpactsToBlockchain', 'html'),
  writePositionImpacts('writeJsonPositionImpactsToBlockchain', 'json'),
  readHtmlLink('getHtmlFrameworkFromBlockchain', 'framework'),
  readJson('getJsonFrameworkFromBlockchain', 'framework'),
  readHtmlLink('getHtmlPositionImpactsFromBlockchain', 'position_impacts'),
  readJson('getJsonPositionImpactsFromBlockchain', 'position_impacts'),
  defineOperation({
    solution: ESG,
    operation: 'getBlockchainJobsForFrameworks',
    params: jobsForFrameworkParams,
    async handler(p, ctx) {
      const res = await chain(ctx).listDocumentJobs({ frameworkIdentifier: p.framework_identifier, kinds: [] }, call(ctx));
      return listed(ctx, res, res.jobs.map(jobListEntry));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getBlockchainJobsForImpacts',
    params: jobsForImpactsParams,
    async handler(p, ctx) {
      const req = { investorIdentifier: p.investor_identifier, positionId: p.position_id, kinds: [] };
      const res = await chain(ctx).listDocumentJobs(req, call(ctx));
      return listed(ctx, res, res.jobs.map(jobListEntry));
    },
  }),
  defineOperation({
    // Not in the spec: every signed link to the document handed out so far stops opening (docs/decisions.md).
    solution: ESG,
    operation: 'revokeDocumentLinks',
    params: jobIdParams,
    async handler(p, ctx) {
      const revoked = await chain(ctx).revokeDocumentLinks({ jobId: p.job_id }, call(ctx));
      return { message: `The links to the document of job ${revoked.jobId} are revoked.` };
    },
  }),
];
