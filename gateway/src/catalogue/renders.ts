import type { Solution } from '../v1/operation.js';

/** Renders the declarations share. */

export const ESG: Solution = 'SVC.ESG.Credits';
export const HASH: Solution = 'SVC.Blockchain.Hash';
export const NFT: Solution = 'SVC.NFT.zK';

/** A change's /v1/call answer: the service's text. */
export const messageOnly = ({ message }: { message: string }) => ({ message });
