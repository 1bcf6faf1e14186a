import type { SubmitDocumentRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { RenderEuGbsDocumentRequest } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { chainClient, portfolioClient, taxonomyClient, type ChainClient } from '../clients.js';
import { documentFormat, documentKind, type DocumentFormatName } from '../catalogue/chain/job-shapes.js';
import type { CompositionContext } from './investor-details.js';

/**
 * COMPOSITION POINT of the report writes (spec §4.2, ARCHITECTURE §2): the owning service renders the
 * document, the chain service queues the job that stores it by CID and anchors sha256 + CID. The
 * catalogue's write declarations (catalogue/chain/documents.ts, both faces) build their SubmitDocument
 * request here. The network is checked first against the chain service's own list, so an unknown one is
 * refused with the service's names before anything is rendered; every backend is picked before the first
 * call, so a missing one is 503 whatever the input.
 */

/** What a document is rendered with besides its format, as both services' render requests take it. */
export interface RenderSettings {
  languageCode?: string | undefined;
  decimals?: number | undefined;
  sdgGoalsIncluded: boolean;
  euObjectivesIncluded: boolean;
}

export interface DocumentWrite {
  format: DocumentFormatName;
  network: string;
  reportingYear: number;
  render: RenderSettings;
  idempotencyKey: string | undefined;
  /** The call to echo as the job's request (no secrets). */
  requestEcho: Record<string, unknown>;
}

/**
 * Refuses a network the chain service does not know before anything is rendered, with the service's own
 * list of names (aliases included): `Unknown network "x"; expected one of sepolia, amoy, mumbai.`
 */
async function requireKnownNetwork(client: ChainClient, network: string, opts: { caller: CompositionContext['caller']; requestId: string }): Promise<void> {
  const { networks } = await client.listNetworks({}, opts);
  const names = networks.map((n) => n.name);
  if (!names.includes(network.trim())) {
    throw new InvalidArgumentError(`Unknown network "${network}"; expected one of ${names.join(', ')}.`, { field: 'network' });
  }
}

/**
 * The call options of a write once its network is known to the chain service. The renderer's client is
 * picked by the caller before this, so a missing backend is 503 whatever the input.
 */
async function knownNetworkOptions(ctx: CompositionContext, network: string): Promise<{ caller: CompositionContext['caller']; requestId: string }> {
  const opts = { caller: ctx.caller, requestId: ctx.requestId };
  await requireKnownNetwork(chainClient(ctx.clients), network, opts);
  return opts;
}

/** The SubmitDocument request of a framework's document: rendered by the taxonomy service. */
export async function frameworkDocumentSubmission(frameworkIdentifier: string, w: DocumentWrite, ctx: CompositionContext): Promise<SubmitDocumentRequest> {
  const taxonomy = taxonomyClient(ctx.clients);
  const opts = await knownNetworkOptions(ctx, w.network);
  const rendered = await taxonomy.renderFrameworkDocument(
    { frameworkIdentifier, reportingYear: w.reportingYear, format: documentFormat(w.format), ...w.render },
    opts,
  );
  return {
      kind: documentKind('framework', w.format),
      network: w.network,
      content: rendered.content,
      contentType: rendered.contentType,
      sha256: rendered.sha256,
      frameworkIdentifier: rendered.frameworkIdentifier || frameworkIdentifier,
      // A public framework's document is public by CID; any other stays the account's (docs/decisions.md).
      public: rendered.frameworkVisibility === Visibility.VISIBILITY_PUBLIC,
      reportingYear: w.reportingYear,
      languageCode: w.render.languageCode,
      idempotencyKey: w.idempotencyKey,
      requestEcho: w.requestEcho,
  };
}

/** The SubmitDocument request of a position's impacts document: rendered by the portfolio service. */
export async function positionImpactsDocumentSubmission(
  position: { positionId: number; writeInvestor: boolean; decryptionKey: string | undefined },
  w: DocumentWrite,
  ctx: CompositionContext,
): Promise<SubmitDocumentRequest> {
  const portfolio = portfolioClient(ctx.clients);
  const opts = await knownNetworkOptions(ctx, w.network);
  const rendered = await portfolio.renderPositionImpactsDocument(
    {
      positionId: position.positionId,
      reportingYear: w.reportingYear,
      format: documentFormat(w.format),
      ...w.render,
      writeInvestorToBlockchain: position.writeInvestor,
      decryptionKey: position.decryptionKey,
    },
    opts,
  );
  return {
      kind: documentKind('position_impacts', w.format),
      network: w.network,
      content: rendered.content,
      contentType: rendered.contentType,
      sha256: rendered.sha256,
      positionId: rendered.positionId || position.positionId,
      investorIdentifier: rendered.investorIdentifier,
      reportingYear: w.reportingYear,
      languageCode: w.render.languageCode,
      idempotencyKey: w.idempotencyKey,
      requestEcho: w.requestEcho,
  };
}

/**
 * The SubmitDocument request of a framework's EU Green Bond Standard document (issue 37): rendered by the
 * taxonomy service from the very request getEuGbsDocument makes, so the bytes anchored are the bytes it
 * answers (the service renders for the framework's owner only, and never reads the clock). Such a document
 * is built from the caller's projects, so it stays the account's: never public by CID.
 */
export async function euGbsDocumentSubmission(
  render: RenderEuGbsDocumentRequest,
  w: Pick<DocumentWrite, 'network' | 'idempotencyKey' | 'requestEcho'>,
  ctx: CompositionContext,
): Promise<SubmitDocumentRequest> {
  const taxonomy = taxonomyClient(ctx.clients);
  const opts = await knownNetworkOptions(ctx, w.network);
  const rendered = await taxonomy.renderEuGbsDocument(render, opts);
  return {
    kind: documentKind('eu_gbs', 'html'),
    network: w.network,
    content: rendered.content,
    contentType: rendered.contentType,
    sha256: rendered.sha256,
    frameworkIdentifier: render.frameworkIdentifier,
    public: false,
    reportingYear: render.reportingYear,
    languageCode: render.languageCode,
    idempotencyKey: w.idempotencyKey,
    requestEcho: w.requestEcho,
  };
}
