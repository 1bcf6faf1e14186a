#!/usr/bin/env node
// npm run codegen [-- <out.ts>] — the typed GraphQL client of docs/client/operations.graphql, generated from
// the committed contract docs/schema.graphql with GraphQL Code Generator (typescript-operations, which since v6 also writes the enums and inputs the operations use,
// and typed-document-node): one TypedDocumentNode per operation, with its result and variables
// types, for graphql-request, Apollo Client, urql or any client that takes a TypedDocumentNode.
// Default output: gateway/dist/client/graphql.ts (build output, not committed). A frontend team runs the
// same plugins over its own operations with this schema.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codegen } from '@graphql-codegen/core';
import * as typescriptOperations from '@graphql-codegen/typescript-operations';
import * as typedDocumentNode from '@graphql-codegen/typed-document-node';
import { parse } from 'graphql';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The scalars the schema declares, as TypeScript types. */
export const SCALARS = { JSON: 'unknown' };

/** TypeScript source of the typed client for `operations` (GraphQL text) against `schema` (SDL text). */
export async function generateClient({
  schema = readFileSync(path.join(root, 'docs/schema.graphql'), 'utf8'),
  operations = readFileSync(path.join(root, 'docs/client/operations.graphql'), 'utf8'),
  location = 'docs/client/operations.graphql',
} = {}) {
  return codegen({
    filename: 'graphql.ts',
    schema: parse(schema),
    documents: [{ location, document: parse(operations) }],
    config: { scalars: SCALARS, enumsAsTypes: true, useTypeImports: true, avoidOptionals: false, strictScalars: true },
    plugins: [{ typescriptOperations: {} }, { typedDocumentNode: {} }],
    pluginMap: { typescriptOperations, typedDocumentNode },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = path.resolve(process.argv[2] ?? path.join(root, 'gateway/dist/client/graphql.ts'));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, await generateClient());
  console.log(`codegen: wrote ${path.relative(process.cwd(), out)}`);
}
