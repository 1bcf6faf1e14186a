import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { currencyHandlers } from './currencies/handlers.js';
import { referenceHandlers } from './reference/handlers.js';
import type { TaxonomyStores } from './stores.js';
import { taxonomyHandlers } from './taxonomy/handlers.js';

/**
 * The TaxonomyService methods this version serves. Frameworks, projects and their renderings (a later
 * issue) are not here yet: `implement` answers them UNIMPLEMENTED.
 */
export function taxonomyServiceHandlers(stores: TaxonomyStores): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  return {
    ...referenceHandlers(stores),
    ...taxonomyHandlers(stores),
    ...currencyHandlers(stores),
  };
}
