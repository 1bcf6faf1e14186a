import type { Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { chainClient, portfolioClient, taxonomyClient } from '../clients.js';
import { documentFormat, documentKind, type DocumentFormatName, type RenderSettings } from '../v1/operations/blockchain-params.js';
import { jobOf, requireKnownNetwork } from '../v1/operations/chain-calls.js';
import type { CompositionContext } from './investor-details.js';

/**
 * COMPOSITION POINT of the report writes (spec §4.2, ARCHITECTURE §2): the owning service renders the
 * document, the chain service queues the job that stores it by CID and anchors sha256 + CID. /v1/call and
 * GraphQL both write through here. The network is checked first, so an unknown one is refused with the
 * list of known ones before anything is rendered; every backend is picked before the first call, so a
 * missing one is 503 whatever the input.
 */

export interface DocumentWrite {
  format: DocumentFormatName;
  network: string;
  reportingYear: number;
  render: RenderSettings;
  idempotencyKey: string | undefined;
  /** The call to echo as the job's request (no secrets). */
  requestEcho: Record<string, unknown>;
}

export async function writeFrameworkDocument(frameworkIdentifier: string, w: DocumentWrite, ctx: CompositionContext): Promise<Job> {
  const chain = chainClient(ctx.clients);
  const taxonomy = taxonomyClient(ctx.clients);
  const opts = { caller: ctx.caller, requestId: ctx.requestId };
  await requireKnownNetwork(chain, w.network, opts);
  const rendered = await taxonomy.renderFrameworkDocument(
    { frameworkIdentifier, reportingYear: w.reportingYear, format: documentFormat(w.format), ...w.render },
    opts,
  );
  const res = await chain.submitDocument(
    {
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
    },
    opts,
  );
  return jobOf(res);
}

export async function writePositionImpactsDocument(
  position: { positionId: number; writeInvestor: boolean; decryptionKey: string | undefined },
  w: DocumentWrite,
  ctx: CompositionContext,
): Promise<Job> {
  const chain = chainClient(ctx.clients);
  const portfolio = portfolioClient(ctx.clients);
  const opts = { caller: ctx.caller, requestId: ctx.requestId };
  await requireKnownNetwork(chain, w.network, opts);
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
  const res = await chain.submitDocument(
    {
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
    },
    opts,
  );
  return jobOf(res);
}
