import type { ImageFetchOptions } from './image-source.js';

/** Where clients reach the gateway unless PUBLIC_BASE_URL says otherwise (the embedded default's port). */
export const DEFAULT_PUBLIC_BASE_URL = 'http://127.0.0.1:8080';

/** NFT settings (all optional; see docs/nfts.md for the env variables behind them). */
export interface NftOptions {
  /** smtp:// or smtps:// URL; without it e-mails are .eml files in mailOutboxDir. */
  smtpUrl?: string | undefined;
  /** Default: mail-outbox beside the content directory. */
  mailOutboxDir?: string | undefined;
  mailFrom?: string | undefined;
  /** An IPFS node's HTTP RPC API (Kubo), e.g. http://ipfs:5001: NFT files are pinned there too. */
  ipfsApiUrl?: string | undefined;
  /** Lifetime of the codes of an e-mailed send (default 7 days). */
  codeTtlMs?: number | undefined;
  /** Image fetching for `new` (size limit, timeout, private hosts). */
  image?: Partial<Omit<ImageFetchOptions, 'publicBaseUrl'>> | undefined;
}
