import type { RenderEuGbsDocumentRequest, RenderEuGbsDocumentResponse } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { ASSET_TYPES, ENVIRONMENTAL_OBJECTIVES, EU_GBS_DOCUMENTS } from '@green-impact/shared/eu-green-bonds';
import { euGbsDocumentSubmission } from '../../composition/document-writes.js';
import { composition } from '../chain/documents.js';
import { jobOf, requestEcho, writeAccepted } from '../chain/job-shapes.js';
import { flag, identifier, int, oneOf, text, type Fields, type InputOf } from '../fields.js';
import { euGbsPageLink } from '../../eu-gbs-routes.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { taxonomyChange } from '../taxonomy/taxonomy.js';
import { changed, frameworkIdentifier, languageCode, projectIdentifier, reportingYear, yearChange } from './fields.js';
import { PROJECT, projectOf } from './projects.js';

/**
 * The EU Green Bond Standard (issue 37, docs/reporting-standards.md): the taxonomy layer of a project's
 * allocation in a year, and the three documents of Regulation (EU) 2023/2631's annexes rendered from the
 * framework's projects. Not spec operations. TaxonomyService owns every rule (activity numbers, the six
 * objectives, the asset types, the Article 5 cap, who may set and render) and its texts.
 */

export const setProjectTaxonomyLayer = declare({
  ...taxonomyChange('setProjectTaxonomyLayer', "Sets the EU taxonomy layer of a project's allocation in a year, whole, replacing the one before (the project's owner; its year specifics must exist)."),
  input: {
    identifier: projectIdentifier,
    year: reportingYear,
    activityCode: identifier('taxonomy_activity_code', { doc: 'The EU taxonomy activity number, e.g. "4.1" (Delegated Regulation (EU) 2021/2139, Annex I).' }),
    activityName: text('taxonomy_activity_name', { doc: "The activity's name, 1 to 255 characters on one line." }),
    objective: oneOf('environmental_objective', ENVIRONMENTAL_OBJECTIVES, { doc: 'The environmental objective it contributes to (Regulation (EU) 2020/852, Article 9).', graphql: 'EnvironmentalObjective' }),
    technicalScreeningMet: flag('technical_screening_met', { doc: 'The technical screening criteria are met.' }),
    doNoSignificantHarmMet: flag('do_no_significant_harm_met', { doc: 'The "do no significant harm" criteria are met.' }),
    minimumSafeguardsMet: flag('minimum_safeguards_met', { doc: 'The minimum safeguards are met.' }),
    assetType: oneOf('asset_type', ASSET_TYPES, { doc: 'Fixed asset, CapEx, OpEx or financial asset (Regulation (EU) 2023/2631, Article 4(1)).', graphql: 'AssetType' }),
    article5: flag('article_5', { doc: 'The allocation uses the flexibility of Article 5 of Regulation (EU) 2023/2631 (never counted as aligned); default no.' }).optional(),
  },
  request: (i) => ({
    projectIdentifier: i.identifier,
    reportingYear: i.year,
    taxonomyActivityCode: i.activityCode,
    taxonomyActivityName: i.activityName,
    environmentalObjective: i.objective,
    technicalScreeningMet: i.technicalScreeningMet,
    doNoSignificantHarmMet: i.doNoSignificantHarmMet,
    minimumSafeguardsMet: i.minimumSafeguardsMet,
    assetType: i.assetType,
    article5: i.article5 ?? false,
  }),
  graphql: changed('setProjectTaxonomyLayer', 'project', projectOf, true, {
    input: { name: 'ProjectTaxonomyLayerInput' },
    order: ['identifier', 'year', 'activityCode', 'activityName', 'objective', 'technicalScreeningMet', 'doNoSignificantHarmMet', 'minimumSafeguardsMet', 'assetType', 'article5'],
  }),
});

export const removeProjectTaxonomyLayer = declare({
  ...yearChange('removeProjectTaxonomyLayer', "Removes the EU taxonomy layer of a project's allocation in a year; the allocated amount stays.", PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier, reportingYear: i.year }),
});

/** The page as text with its type and SHA-256 (of its UTF-8 bytes), and a signed link to it as a page, on both faces. */
function page(res: RenderEuGbsDocumentResponse, url: string) {
  return { content: Buffer.from(res.content).toString('utf8'), content_type: res.contentType, sha256: res.sha256, url };
}

/** A framework's EU GBS document and how it is rendered: what getEuGbsDocument shows and writeEuGbsDocumentToBlockchain anchors. */
const documentFields = {
  identifier: frameworkIdentifier,
  year: reportingYear,
  document: oneOf('document', EU_GBS_DOCUMENTS, { doc: 'factsheet (Annex I), allocation_report (Annex II) or impact_report (Annex III) of Regulation (EU) 2023/2631.', graphql: 'EuGbsDocumentKind' }),
  publicationDate: identifier('publication_date', { doc: 'The date of publication written in the document, YYYY-MM-DD; "Not given" when omitted.', graphql: 'Date' }).optional(),
  decimals: int('decimals', { doc: 'Decimals of amounts and values, 0 to 10; default 2.' }).optional(),
  languageCode,
} as const satisfies Fields;

/** The one render request of both operations, so the document written is byte for byte the one shown. */
const renderRequest = (i: InputOf<typeof documentFields>): RenderEuGbsDocumentRequest => ({
  frameworkIdentifier: i.identifier,
  reportingYear: i.year,
  document: i.document,
  publicationDate: i.publicationDate,
  decimals: i.decimals,
  languageCode: i.languageCode,
});

export const getEuGbsDocument = declare({
  solution: ESG,
  operation: 'getEuGbsDocument',
  summary: "One of the EU Green Bond Standard's documents of a framework's year (factsheet, allocation report, impact report), from the caller's projects built into it, as an A4 HTML page with a signed link to it (the framework's owner only).",
  input: documentFields,
  service: 'taxonomy',
  method: 'renderEuGbsDocument',
  request: renderRequest,
  // The link shows the page as the service renders it by default (2 decimals, original names), with this publication date.
  v1: (res, i, ctx) => page(res, euGbsPageLink(ctx.documentLinks, ctx.http.baseUrl, ctx.caller!, i.identifier, i.year, i.document, i.publicationDate)),
  graphql: {
    root: 'Query',
    field: 'euGbsDocument',
    nested: false,
    returns: 'EuGbsDocument!',
    render: async (call, i, ctx) => {
      const res = await call();
      const p = page(res, euGbsPageLink(ctx.documentLinks, ctx.baseUrl, (await ctx.auth()).caller, i.identifier, i.year, i.document, i.publicationDate));
      return { content: p.content, contentType: p.content_type, sha256: p.sha256, url: p.url };
    },
  },
});

const WRITE = 'writeEuGbsDocumentToBlockchain';
const writeFields = { ...documentFields, network: text('network', { doc: 'Network name, one of the chain service’s.' }) } as const satisfies Fields;

/**
 * Anchors an EU GBS document as getEuGbsDocument answers it for the same parameters: the taxonomy service
 * renders it (for the framework's owner only), the chain service stores it by CID and anchors its sha256 in
 * the next document batch, listed with the framework's documents. Answers the job at once, as the §4.2 writes.
 */
export const writeEuGbsDocument = declare({
  solution: ESG,
  operation: WRITE,
  summary: "Writes one of a framework's EU Green Bond Standard documents of a year (as getEuGbsDocument answers it) to a network; answers the job at once (the framework's owner only).",
  input: writeFields,
  service: 'chain',
  method: 'submitDocument',
  request: (i, ctx) => {
    // The call as /v1/call spells it, whichever face made it, so a job reads the same.
    const echoed = Object.fromEntries(Object.entries(writeFields).map(([name, field]) => [field.v1, (i as Record<string, unknown>)[name]]));
    return euGbsDocumentSubmission(renderRequest(i), { network: i.network, idempotencyKey: ctx.idempotencyKey, requestEcho: requestEcho(ESG, WRITE, echoed) }, composition(ctx));
  },
  v1: (res) => writeAccepted(jobOf(res).id),
  // A payload, not the bare Job the 1.0.0 document writes answer: a caller's mistake can be userErrors (issue 29).
  graphql: {
    root: 'Mutation',
    field: 'writeEuGbsDocument',
    nested: true,
    returns: 'WriteEuGbsDocumentPayload!',
    idempotent: true,
    order: ['identifier', 'year', 'document', 'network', 'publicationDate', 'decimals', 'languageCode', 'idempotencyKey'],
    render: async (call) => {
      const job = jobOf(await call());
      return { message: 'Document queued for the network.', id: job.id, job };
    },
  },
});

export const euGbsOperations = [setProjectTaxonomyLayer, removeProjectTaxonomyLayer, getEuGbsDocument, writeEuGbsDocument];
