import { GraphQLError, NoSchemaIntrospectionCustomRule, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';

/**
 * Validation of operations over the WebSocket, by the same rules as Apollo applies over HTTP (apollo.ts):
 * the query limits, and in production no introspection and no schema hints ("Did you mean …?") in
 * messages. Errors carry Apollo's GRAPHQL_VALIDATION_FAILED unless a rule of ours named a sharper code
 * (QUERY_TOO_COMPLEX), so a client sees the same code on both doors.
 */
export function wsValidate(validationRules: readonly ValidationRule[], production: boolean) {
  // Apollo's `introspection: false` is this rule; the socket is the same schema's other door.
  const rules = [...specifiedRules, ...validationRules, ...(production ? [NoSchemaIntrospectionCustomRule] : [])];
  return (schema: GraphQLSchema, document: DocumentNode): GraphQLError[] =>
    validate(schema, document, rules).map((e) =>
      typeof e.extensions['code'] === 'string'
        ? e
        : new GraphQLError(production ? withoutHints(e.message) : e.message, {
            nodes: e.nodes,
            source: e.source,
            positions: e.positions,
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          }),
    );
}

/** Apollo's hideSchemaDetailsFromClientErrors: the suggestions name fields a client did not ask about. */
function withoutHints(message: string): string {
  return message.replace(/ ?Did you mean(.+?)\?$/, '');
}
