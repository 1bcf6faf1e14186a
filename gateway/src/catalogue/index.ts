import type { Operation } from './operation.js';
import { chainOperations } from './chain/index.js';
import { identityOperations } from './identity/index.js';
import { portfolioDomainOperations } from './portfolio/index.js';
import { euGbsOperations } from './frameworks/eu-gbs.js';
import { frameworkDomainOperations } from './frameworks/projects.js';
import { currencyOperations } from './taxonomy/currencies.js';
import { taxonomyOperations } from './taxonomy/taxonomy.js';
import { translationOperations } from './taxonomy/translations.js';

/**
 * THE catalogue: every operation declared once (a folder per domain, a file per operation or small
 * group). /v1/call's table (v1/operation-table.ts) and GraphQL's root resolvers (graphql/resolvers/index.ts)
 * are written from it; GraphQL's `me`, which calls no service, alone stays a resolver of its own
 * (docs/gateway.md, "The catalogue").
 */
export const catalogue: readonly Operation[] = [
  ...taxonomyOperations,
  ...translationOperations,
  ...currencyOperations,
  ...chainOperations,
  ...identityOperations,
  ...portfolioDomainOperations,
  ...frameworkDomainOperations,
  ...euGbsOperations,
];
