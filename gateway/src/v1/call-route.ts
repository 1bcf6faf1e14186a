import { Router, type RequestHandler } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { NotFoundError } from '@green-impact/shared/errors';
import { API_KEY_HEADER, AUTHORIZATION_HEADER, refuseReadOnlyWrite, type Authenticate } from '../auth.js';
import type { GatewayClients } from '../clients.js';
import type { DocumentLinks } from '../document-links.js';
import { jsonBody, sendJson } from '../json-body.js';
import { locals, routeLabel } from '../request-context.js';
import { parseCall } from './envelope.js';
import { openApiDocument } from './openapi.js';
import { SOLUTIONS, type Solution } from './operation.js';
import type { OperationTable } from './operation-table.js';
import { answerHeaders } from './truncation.js';
import { sendStreamedJson, StreamedJson } from './streamed-json.js';
import { baseUrlOf, IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from './request-facts.js';

export interface CallRouteOptions {
  table: OperationTable;
  authenticate: Authenticate;
  clients: GatewayClients;
  log: Logger;
  bodyLimitBytes: number;
  /** PUBLIC_BASE_URL, for links in answers; the request's own origin when undefined. */
  publicBaseUrl?: string | undefined;
  /** The rate limits (rate-limit/rate-limit-middleware.ts), checked before the body is read. */
  rateLimit: RequestHandler;
  /** The request's time budget (request-deadline.ts), started once the body is read. */
  deadline: RequestHandler;
  /** Signs the links to written pages in answers (getHtml*FromBlockchain). */
  documentLinks: DocumentLinks;
}

/**
 * POST /v1/call: parse the body, authenticate the key, check the envelope against the operation table,
 * read the parameters with the row's fields, run the row's handler and answer 200 with what it returns.
 * Errors go to the gateway's error handler.
 */
export function callRoute(options: CallRouteOptions): Router {
  const router = Router();
  const parseBody = jsonBody(options.bodyLimitBytes, { requireJsonType: true });
  router.post('/v1/call', routeLabel('/v1/call'), options.rateLimit, parseBody, options.deadline, async (req, res) => {
    const { requestId } = locals(res);
    // Operations authorized by their parameters (withoutApiKey) skip the key; all others authenticate
    // before anything of the body is checked.
    const keyless = isKeylessCall(req.body, options.table);
    const authenticated = keyless
      ? undefined
      : await options.authenticate(req.header(API_KEY_HEADER), requestId, locals(res).clientAddress, req.header(AUTHORIZATION_HEADER));
    const caller = authenticated?.caller;
    if (caller) locals(res).caller = caller;
    const { entry, parameters, envelope } = parseCall(req.body, options.table);
    if (authenticated && (entry.writes || entry.writesWhen?.(parameters))) refuseReadOnlyWrite(authenticated);
    locals(res).operation = `${entry.solution}/${entry.operation}`;
    const log = options.log.child({ requestId, operation: entry.operation });
    const idempotencyHeader = req.header(IDEMPOTENCY_KEY_HEADER);
    const http = {
      // Checked when an operation that creates a job reads it; the others ignore the header.
      get idempotencyKey() {
        return parseIdempotencyKey(idempotencyHeader);
      },
      baseUrl: baseUrlOf(options.publicBaseUrl, { protocol: req.protocol, host: req.get('host') }),
    };
    const ctx = { requestId, clients: options.clients, log, envelope, http, documentLinks: options.documentLinks, answer: answerHeaders(res) };
    const result = entry.withoutApiKey ? await entry.handler(parameters, ctx) : await entry.handler(parameters, { ...ctx, caller: caller! });
    if (result instanceof StreamedJson) await sendStreamedJson(res, result);
    else sendJson(res, 200, result);
  });
  // The machine-readable description of /v1/call, written from this gateway's table (v1/openapi.ts).
  const openApi = JSON.stringify(openApiDocument(options.table));
  router.get('/v1/openapi.json', routeLabel('/v1/openapi.json'), options.rateLimit, (_req, res) => {
    res.type('application/json').setHeader('Cache-Control', 'public, max-age=300');
    res.send(openApi);
  });
  router.all('/v1/call', routeLabel('/v1/call'), () => {
    throw new NotFoundError('Every operation is POST /v1/call.');
  });
  return router;
}

/**
 * Whether the body names an operation the table marks withoutApiKey. Only looks: the envelope and the
 * parameters are checked by parseCall afterwards, exactly as for every other operation.
 */
function isKeylessCall(body: unknown, table: OperationTable): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  const solution = b['solution'] ?? b['contract'];
  const operation = b['operation'];
  if (typeof solution !== 'string' || typeof operation !== 'string') return false;
  if (!(SOLUTIONS as readonly string[]).includes(solution)) return false;
  return table.find(solution as Solution, operation)?.withoutApiKey === true;
}
