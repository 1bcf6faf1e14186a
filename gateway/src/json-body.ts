import express, { type NextFunction, type Request, type Response } from 'express';
import { InvalidArgumentError } from '@green-impact/shared/errors';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Parses a JSON body of at most `limitBytes`. Body-parser's own failures (too large, not JSON, bad
 * charset) reach the error handler, which maps them to 413/400. With `requireJsonType`, a request
 * whose Content-Type is not JSON is refused with 400 instead of being silently left unparsed.
 */
export function jsonBody(limitBytes: number, options: { requireJsonType: boolean }) {
  const parse = express.json({ limit: limitBytes, strict: false, type: JSON_TYPES });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (options.requireJsonType && req.method === 'POST' && !req.is(JSON_TYPES)) {
      next(new InvalidArgumentError('Content-Type must be application/json.'));
      return;
    }
    parse(req, res, next);
  };
}
