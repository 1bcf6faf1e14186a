import { documentOperations } from './documents.js';
import { jobOperations } from './jobs.js';
import { keyValueOperations } from './key-value.js';
import { nftOperations } from './nfts.js';

/** The chain service's operations: written documents and jobs (§4.2), key-value storage (§4.12), NFTs (§4.13). */
export const chainOperations = [...jobOperations, ...documentOperations, ...keyValueOperations, ...nftOperations];
