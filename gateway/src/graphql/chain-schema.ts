import { documentOperations } from '../catalogue/chain/documents.js';
import { jobOperations, jobOrderSdl } from '../catalogue/chain/jobs.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { rootFieldsSdl } from '../catalogue/sdl.js';
import { documentKindEnumSdl, jobKindEnumSdl, jobStatusEnumSdl } from '../generated/chain.js';
import { chainObjects } from './chain-objects.js';
import { connectionType } from './pagination.js';

/**
 * SDL of blockchain jobs, networks and written documents (spec §4.2 reads, §4.12, §2.9): the camelCase
 * counterpart of the /v1/call blockchain reads, served by ChainService, their object types declared in
 * chain-objects.ts. Appended to schema.ts's typeDefs; the writes are in chain-mutations-schema.ts. Jobs are private to the account that created them.
 */
export const chainTypeDefs = /* GraphQL */ `
  "Any JSON value, as the service stored it (a job's request echo and legacy result)."
  scalar JSON

  extend type Query {${rootFieldsSdl('Query', [...jobOperations, ...documentOperations])}
  }
${jobOrderSdl}${jobStatusEnumSdl}${jobKindEnumSdl}${documentKindEnumSdl}
${objectTypesSdl(chainObjects)}${connectionType('DocumentEntry', 'document entries')}`;
