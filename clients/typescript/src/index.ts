/**
 * @green-impact/client: typed GraphQL documents for the operations in operations.graphql (generated from
 * schema.graphql with GraphQL Code Generator), and the /v1/call types (from openapi.json with
 * openapi-typescript) under `@green-impact/client/v1`. Regenerate with `npm run client:write`; the build
 * fails when these files drift from the gateway's contract.
 */
export * from './graphql.js';
