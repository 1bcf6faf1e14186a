import type { Response } from 'express';
import { NotAuthorizedError, NotFoundError } from '@green-impact/shared/errors';
import { describeError } from '../http-errors.js';
import { errorPage, pageHeaders } from './html.js';

/**
 * The link a signed URL stands for, or the refusal every signed page gives: expired is 403 and says so;
 * altered, revoked, foreign or unknown is the 404 `notFound` of a page that does not exist.
 */
export function openLink<L extends { ok: true } | { ok: false; reason: 'expired' | 'invalid' }>(link: L, notFound: string): Extract<L, { ok: true }> {
  if (link.ok) return link as Extract<L, { ok: true }>;
  if (link.reason === 'expired') throw new NotAuthorizedError('This link has expired. Ask whoever sent it for a new one.');
  throw new NotFoundError(notFound);
}

/**
 * Answers a signed link's request: a browser follows it, so a refusal is a page too (never JSON). Internal
 * errors go on to the error handler, which logs them and answers without details.
 */
export async function asPages(res: Response, answer: () => Promise<void>): Promise<void> {
  try {
    await answer();
  } catch (err) {
    const { status, body, internal } = describeError(err);
    if (internal) throw err;
    res.status(status).set(pageHeaders('no-store')).send(errorPage(status, body.message));
  }
}
