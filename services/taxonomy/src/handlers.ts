import type { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { currencyHandlers } from './currencies/handlers.js';
import { frameworkHandlers } from './frameworks/handlers.js';
import { projectHandlers } from './projects/handlers.js';
import { referenceHandlers } from './reference/handlers.js';
import type { TaxonomyStores } from './stores.js';
import { taxonomyHandlers } from './taxonomy/handlers.js';

/** The TaxonomyService methods, by group; a method missing here would answer UNIMPLEMENTED. */
export function taxonomyServiceHandlers(stores: TaxonomyStores): Partial<UnaryHandlers<typeof TaxonomyServiceService>> {
  return {
    ...referenceHandlers(stores),
    ...taxonomyHandlers(stores),
    ...currencyHandlers(stores),
    ...frameworkHandlers(stores),
    ...projectHandlers(stores),
  };
}
