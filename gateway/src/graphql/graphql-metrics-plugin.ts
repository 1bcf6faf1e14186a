import type { ApolloServerPlugin } from '@apollo/server';
import { countOperation, observeResolver, operationLabel, outcomeOf, unresolvedLabel } from './graphql-metrics.js';
import { bulkheadRetryAfter } from './response-status.js';

/**
 * Counts each HTTP GraphQL operation by name and outcome when its answer is sent (graphql-metrics.ts), and
 * times root field resolvers. Nested fields are not timed: their count grows with the schema times the
 * paths clients take, and a root field's time already includes them.
 */
export const graphqlMetricsPlugin: ApolloServerPlugin = {
  async requestDidStart({ request }) {
    let name: string | undefined;
    let validated = false;
    let bulkheadRefusal = false;
    let rootFields = 0;
    return {
      async didResolveOperation({ operationName }) {
        validated = true;
        name = operationName ?? undefined;
      },
      async didEncounterErrors({ errors }) {
        if (errors.some((error) => bulkheadRetryAfter(error) !== undefined)) bulkheadRefusal = true;
      },
      async executionDidStart() {
        return {
          willResolveField({ info }) {
            if (info.path.prev !== undefined) return;
            rootFields += 1;
            const started = process.hrtime.bigint();
            return () => observeResolver(info.parentType.name, info.fieldName, Number(process.hrtime.bigint() - started) / 1e9);
          },
        };
      },
      async willSendResponse({ response }) {
        const body = response.body;
        const errors = body.kind === 'single' ? body.singleResult.errors : body.initialResult.errors;
        const outcome = outcomeOf(errors, bulkheadRefusal);
        // A name joins the label set only from an operation that validated, ran a resolver of the schema and
        // met no client error or refusal: no caller without a valid key (the resolvers refuse it), and no
        // `{ __typename }` probe, can fill the set and push real clients' names out to "other".
        const learn = validated && rootFields > 0 && (outcome === 'success' || outcome === 'server_error');
        const label = validated ? operationLabel(name, learn) : unresolvedLabel(request.operationName);
        countOperation(label, outcome, 'http');
      },
    };
  },
};
