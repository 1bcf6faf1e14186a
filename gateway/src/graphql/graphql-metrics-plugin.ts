import type { ApolloServerPlugin } from '@apollo/server';
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { countOperation, observeResolver, operationLabel, outcomeOf, unresolvedLabel } from './graphql-metrics.js';
import { bulkheadRetryAfter } from './response-status.js';

/** What one HTTP operation ran, keyed by its context object (graphql-ws contexts are never entered). */
const httpOperations = new WeakMap<object, { rootFields: number }>();
const TIMED = Symbol('root field timed');

/**
 * Times the root fields (Query, Mutation) of `schema` by parent type and field for the HTTP operations
 * graphqlMetricsPlugin follows, and counts them for its naming rule. Nested fields are not timed: their
 * count grows with the schema times the paths clients take, and a root field's time already includes them.
 *
 * Done by wrapping the root fields' resolvers once (idempotent: many gateways may share one schema) rather
 * than with Apollo's willResolveField hook, whose presence makes Apollo wrap and call back every field of
 * every answer, nested ones included: for a list of positions that was most of Apollo's own cost.
 * Operations outside the plugin's HTTP requests (graphql-ws) pass straight to the resolver, as before.
 */
export function timeRootFields(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type) continue;
    for (const field of Object.values(type.getFields())) {
      const marked = field as typeof field & { [TIMED]?: true };
      if (marked[TIMED]) continue;
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const operation = typeof context === 'object' && context !== null ? httpOperations.get(context) : undefined;
        if (!operation) return resolve(source, args, context, info);
        operation.rootFields += 1;
        const started = process.hrtime.bigint();
        const done = () => observeResolver(type.name, field.name, Number(process.hrtime.bigint() - started) / 1e9);
        let result: unknown;
        try {
          result = resolve(source, args, context, info);
        } catch (err) {
          done();
          throw err;
        }
        if (result instanceof Promise) result.then(done, done);
        else done();
        return result;
      };
      marked[TIMED] = true;
    }
  }
}

/**
 * Counts each HTTP GraphQL operation by name and outcome when its answer is sent (graphql-metrics.ts); its
 * root fields are timed by timeRootFields, which the schema given to Apollo must have been passed through.
 */
export const graphqlMetricsPlugin: ApolloServerPlugin = {
  async requestDidStart({ request, contextValue }) {
    const operation = { rootFields: 0 };
    httpOperations.set(contextValue, operation);
    let name: string | undefined;
    let validated = false;
    let bulkheadRefusal = false;
    return {
      async didResolveOperation({ operationName }) {
        validated = true;
        name = operationName ?? undefined;
      },
      async didEncounterErrors({ errors }) {
        if (errors.some((error) => bulkheadRetryAfter(error) !== undefined)) bulkheadRefusal = true;
      },
      async willSendResponse({ response }) {
        const body = response.body;
        const errors = body.kind === 'single' ? body.singleResult.errors : body.initialResult.errors;
        const outcome = outcomeOf(errors, bulkheadRefusal);
        // A name joins the label set only from an operation that validated, ran a resolver of the schema and
        // met no client error or refusal: no caller without a valid key (the resolvers refuse it), and no
        // `{ __typename }` probe, can fill the set and push real clients' names out to "other".
        const learn = validated && operation.rootFields > 0 && (outcome === 'success' || outcome === 'server_error');
        const label = validated ? operationLabel(name, learn) : unresolvedLabel(request.operationName);
        countOperation(label, outcome, 'http');
      },
    };
  },
};
