/**
 * @green-impact/client: typed GraphQL documents for the operations in operations.graphql (generated from
 * schema.graphql with GraphQL Code Generator), and the /v1/call types (from openapi.json with
 * openapi-typescript) under `@green-impact/client/v1`. Those files are written by the root build
 * (scripts/codegen.mjs) from the built gateway, never by hand.
 */
export * from './graphql.js';
