import type { Solution } from '../v1/operation.js';

/** Renders the declarations share. */

export const ESG: Solution = 'SVC.ESG.Credits';
export const HASH: Solution = 'SVC.Blockchain.Hash';
export const NFT: Solution = 'SVC.NFT.zK';

/** A change's /v1/call answer: the service's text. */
export const messageOnly = ({ message }: { message: string }) => ({ message });

/** What every change of a service declares alike: the spec's operation of the method's name, answered on /v1/call with the service's text. */
export const messageChange = <const S extends string, M extends string>(service: S, method: M, summary: string) => ({ solution: ESG, operation: method, summary, service, method, v1: messageOnly });
