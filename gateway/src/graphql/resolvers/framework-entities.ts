import type { GraphqlContext } from '../context.js';
import type { GqlFramework, GqlProject } from '../framework-reads.js';
import { changePayload, type ServiceAnswer } from '../payloads.js';
import { frameworkQueries } from './framework-resolvers.js';

/**
 * The framework or project a change's payload carries (payloads.ts), read as framework(identifier, year) /
 * project(identifier, year) read it for the caller: the caller's own item with this identifier, else a
 * public one. Its year-specific fields are those of the payload field's `year` argument, else the change's
 * year, else (addFramework, addProject, which have none) the current UTC year.
 */

type YearArg = { year?: number | null };

export const currentYear = (): number => new Date().getUTCFullYear();

const yearOf = (args: YearArg, changeYear: number | undefined) => args.year ?? changeYear ?? currentYear();

export function frameworkPayload(ctx: GraphqlContext, answer: ServiceAnswer, identifier: string, changeYear?: number) {
  return changePayload(ctx, answer, 'framework', (args: YearArg): Promise<GqlFramework | null> =>
    frameworkQueries.framework(undefined, { identifier, year: yearOf(args, changeYear) }, ctx),
  );
}

export function projectPayload(ctx: GraphqlContext, answer: ServiceAnswer, identifier: string, changeYear?: number) {
  return changePayload(ctx, answer, 'project', (args: YearArg): Promise<GqlProject | null> =>
    frameworkQueries.project(undefined, { identifier, year: yearOf(args, changeYear) }, ctx),
  );
}

/** The id of the framework a removal names, read before it (payloads.ts's removalPayload). */
export const frameworkIdOf = (ctx: GraphqlContext, identifier: string) => async () =>
  (await frameworkQueries.framework(undefined, { identifier, year: currentYear() }, ctx))?.id;

/** The id of the project a removal names, read before it. */
export const projectIdOf = (ctx: GraphqlContext, identifier: string) => async () =>
  (await frameworkQueries.project(undefined, { identifier, year: currentYear() }, ctx))?.id;
