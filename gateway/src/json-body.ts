import express, { type NextFunction, type Request, type Response } from 'express';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { jsonTooDeep, tooDeepMessage } from './json-depth.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Parses a JSON body of at most `limitBytes`. Body-parser's own failures (too large, not JSON, bad
 * charset) reach the error handler, which maps them to 413/400. With `requireJsonType`, a request
 * whose Content-Type is not JSON is refused with 400 instead of being silently left unparsed. A body nested
 * deeper than MAX_JSON_DEPTH is refused with 400 INVALID_ARGUMENT (BAD_USER_INPUT on /graphql) before any
 * handler or serializer walks it.
 */
export function jsonBody(limitBytes: number, options: { requireJsonType: boolean }) {
  const parse = express.json({ limit: limitBytes, strict: false, type: JSON_TYPES });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (options.requireJsonType && req.method === 'POST' && !req.is(JSON_TYPES)) {
      next(new InvalidArgumentError('Content-Type must be application/json.'));
      return;
    }
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (jsonTooDeep(req.body)) return next(new InvalidArgumentError(tooDeepMessage('The request body')));
      next();
    });
  };
}

/**
 * Answers `value` as JSON, with the headers express's res.json() sends (Content-Type with charset,
 * Content-Length) but without its per-answer work this gateway never needs (settings lookups, content-type
 * re-parsing, a copy of bodies over 1 kB, freshness checks that a POST never passes): on every /v1/call
 * answer that was a tenth of a minimal express request's CPU.
 */
export function sendJson(res: Response, status: number, value: unknown): void {
  const body = JSON.stringify(value) ?? '';
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
