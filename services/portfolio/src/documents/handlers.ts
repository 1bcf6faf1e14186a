import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import type { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { requireAccount } from '../caller.js';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { MSG } from '../messages.js';
import type { PortfolioStores } from '../stores.js';
import type { DocumentFormatName } from './position-document-renderer.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

/** The position impacts document the gateway hands to ChainService.SubmitDocument. */
export function documentHandlers(s: PortfolioStores): Pick<Handlers, 'renderPositionImpactsDocument'> {
  return {
    async renderPositionImpactsDocument(req, ctx) {
      return s.documents.render(requireAccount(ctx.caller), {
        positionId: req.positionId,
        reportingYear: req.reportingYear,
        format: formatName(req.format),
        languageCode: req.languageCode,
        decimals: req.decimals,
        sdgGoalsIncluded: req.sdgGoalsIncluded,
        euObjectivesIncluded: req.euObjectivesIncluded,
        writeInvestorToBlockchain: req.writeInvestorToBlockchain,
        decryptionKey: req.decryptionKey,
      });
    },
  };
}

function formatName(format: DocumentFormat): DocumentFormatName {
  if (format === DocumentFormat.DOCUMENT_FORMAT_JSON) return 'json';
  if (format === DocumentFormat.DOCUMENT_FORMAT_HTML) return 'html';
  throw new InvalidArgumentError(MSG.documentFormat);
}
