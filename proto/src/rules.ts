/**
 * The few shapes of the contract that more than one part reads, each written once, here, beside the protos
 * (docs/decisions.md, "One owner per rule"): the service that owns each one checks it with these constants,
 * and the gateway reads the same constants where it must tell a path or a cursor apart before any call
 * (a certificate's guid, an explorer path's network) or describe an answer (OpenAPI).
 */

/**
 * A network's name, as the chain service configures its networks (`sepolia`, `amoy`, `mumbai`): lower
 * case letters, digits, `-` and `_`, at most 64 characters. The chain service resolves names exactly, so
 * nothing else (upper case, dots) ever names a network.
 */
export const NETWORK_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** {@link NETWORK_NAME} as the JSON Schema pattern OpenAPI publishes. */
export const NETWORK_NAME_PATTERN = NETWORK_NAME.source;

/**
 * A UUID as the services issue them (job ids, NFT guids, account ids, recompute jobs): lower-case hex.
 * Lookups are exact, so an upper-case spelling names nothing.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The reporting years the taxonomy and portfolio services take and store (their migrations' CHECK). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;
