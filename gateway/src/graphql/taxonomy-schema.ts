import { objectTypesSdl } from '../catalogue/objects.js';
import { rootFieldsSdl } from '../catalogue/sdl.js';
import { getCurrencies, getFxRates } from '../catalogue/taxonomy/currencies.js';
import { getEuObjectives, getSdgs, yearReads } from '../catalogue/taxonomy/taxonomy.js';
import { getLanguages } from '../catalogue/taxonomy/translations.js';
import { taxonomyObjects } from './taxonomy-objects.js';

/**
 * SDL of the taxonomy, languages, SDGs, EU objectives, currencies and FX rates (spec §4.3–§4.5): the
 * camelCase counterpart of the taxonomy service's /v1/call reads, their root fields written from their
 * declarations (catalogue/sdl.ts), their object types from taxonomy-objects.ts. Appended to schema.ts's
 * typeDefs; the changes are in taxonomy-mutations-schema.ts.
 */
export const taxonomyTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', [getSdgs, getEuObjectives, getLanguages, getCurrencies, getFxRates, ...yearReads])}
  }

${objectTypesSdl(taxonomyObjects)}`;
