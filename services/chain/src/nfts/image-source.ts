import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { FailedPreconditionError, InvalidArgumentError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import type { ContentStore } from '../content/content-store.js';
import { addressRange, isPublicAddress } from './public-address.js';

export interface ImageFetchOptions {
  /** The service's public base URL: <base>/ipfs/<cid> is read from the content store, not over HTTP. */
  publicBaseUrl: string;
  maxBytes: number;
  timeoutMs: number;
  /**
   * Fetch from any address, not only public unicast ones. Off by default: the service must not be
   * a way into its own network (cloud metadata endpoints, internal services). Tests turn it on.
   */
  allowPrivateHosts: boolean;
}

export const DEFAULT_IMAGE_FETCH: Omit<ImageFetchOptions, 'publicBaseUrl'> = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 15_000,
  allowPrivateHosts: false,
};

export interface LoadedImage {
  bytes: Buffer;
  contentType: string;
}

const MAX_REDIRECTS = 3;
const STORE_PATH = /^\/ipfs\/([^/?#]+)\/?$/;

/**
 * The bytes of an NFT's image: `ipfs://<cid>`, `/ipfs/<cid>` and `<publicBaseUrl>/ipfs/<cid>` come from the
 * content store; any other http(s) URL is fetched (size limit, timeout, at most 3 redirects). Whatever
 * cannot be read, or is not an image, is an error, so no NFT is minted with a broken image: a clear one for
 * the content store, one generic one (the detail logged to `log`) for anything fetched.
 */
export async function loadImage(
  source: string,
  content: Pick<ContentStore, 'get'>,
  opts: ImageFetchOptions,
  log?: Pick<Logger, 'info'>,
): Promise<LoadedImage> {
  const text = source.trim();
  if (!text) throw new InvalidArgumentError('image is required: an http(s) URL, ipfs://<cid> or /ipfs/<cid> of the service.', { field: 'image' });
  const cid = storeCid(text, opts.publicBaseUrl);
  if (cid !== undefined) {
    const found = await content.get(cid);
    if (!found) throw new FailedPreconditionError(`The image ipfs://${cid} is not in the service's content store. Nothing was minted.`);
    return { bytes: found.content, contentType: imageType(found.content, found.contentType, `ipfs://${cid}`) };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError('image must be an http(s) URL, ipfs://<cid> or /ipfs/<cid> of the service.', { field: 'image' });
  }
  if (url.protocol === 'ipfs:') throw new InvalidArgumentError('image: an ipfs:// URI must be ipfs://<cid> of a file in the service\'s content store.', { field: 'image' });
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`image must be an http(s) URL, ipfs://<cid> or /ipfs/<cid> of the service, got a ${url.protocol} URL.`, { field: 'image' });
  }
  try {
    const fetched = await fetchImage(url, opts);
    return { bytes: fetched.bytes, contentType: imageType(fetched.bytes, fetched.contentType, shown(url)) };
  } catch (err) {
    // The caller learns only that it failed: the remote status, a refused connection, a name that does
    // not resolve or resolves inside, a timeout or a wrong type would each tell what the service can
    // reach that the caller cannot (a scanning oracle). The reason goes to the log.
    log?.info({ image: shown(url), reason: err instanceof Error ? err.message : String(err) }, 'NFT image not fetched');
    throw unfetchable(url, opts);
  }
}

/** The CID when the URI names the service's own content store. */
export function storeCid(text: string, publicBaseUrl: string): string | undefined {
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?([^/?#]+)\/?$/.exec(text);
  if (ipfs) return ipfs[1];
  const path = STORE_PATH.exec(text);
  if (path) return path[1];
  let url: URL;
  let base: URL;
  try {
    url = new URL(text);
    base = new URL(publicBaseUrl);
  } catch {
    return undefined; // not a URL: the caller reports it
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || url.search || !url.pathname.startsWith(`${prefix}/ipfs/`)) return undefined;
  return STORE_PATH.exec(url.pathname.slice(prefix.length))?.[1];
}

/** A URL as shown in messages: without credentials or query (signed URLs carry secrets there). */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

async function fetchImage(start: URL, opts: ImageFetchOptions): Promise<{ bytes: Buffer; contentType: string }> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const answer = await getOnce(url, opts, signal);
    if ('location' in answer) {
      if (redirects >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      const next = new URL(answer.location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`redirected to a ${next.protocol} URL`);
      url = next;
      continue;
    }
    return answer;
  }
}

function getOnce(url: URL, opts: ImageFetchOptions, signal: AbortSignal): Promise<{ bytes: Buffer; contentType: string } | { location: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivateHosts && isIP(host) && !isPublicAddress(host)) {
    return Promise.reject(new Error(`${shown(url)}: its host is not a public address (${addressRange(host)})`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(
      url,
      {
        signal,
        headers: { accept: 'image/*', 'user-agent': 'green-impact-nft/1 (+image fetch for minting)' },
        ...(opts.allowPrivateHosts ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          resolve({ location: res.headers.location });
          return;
        }
        if (status !== 200) {
          res.resume();
          reject(new Error(`${shown(url)}: HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`));
          return;
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > opts.maxBytes) {
          res.destroy();
          reject(new Error(`${shown(url)}: larger than ${opts.maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            res.destroy();
            reject(new Error(`${shown(url)}: larger than ${opts.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (size === 0) reject(new Error(`${shown(url)}: the response is empty`));
          else resolve({ bytes: Buffer.concat(chunks), contentType: String(res.headers['content-type'] ?? '') });
        });
        res.on('error', (err) => reject(new Error(`${shown(url)}: ${reason(err, signal, opts)}`)));
      },
    );
    req.on('error', (err) => reject(new Error(`${shown(url)}: ${reason(err, signal, opts)}`)));
  });
}

function reason(err: Error, signal: AbortSignal, opts: ImageFetchOptions): string {
  if (signal.aborted) return `no complete answer within ${opts.timeoutMs} ms`;
  if ((err as { code?: string }).code === 'PRIVATE_ADDRESS') return err.message;
  const code = (err as { code?: string }).code;
  return code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'the host name does not resolve' : code === 'ECONNREFUSED' ? 'the connection was refused' : err.message;
}

/** The one answer for any fetch that failed: what an image must be, not which rule this one broke. */
function unfetchable(url: URL, opts: ImageFetchOptions): FailedPreconditionError {
  return new FailedPreconditionError(
    `The image could not be fetched from ${shown(url)}: it must be an image of at most ${opts.maxBytes} bytes that a public address ` +
      `answers within ${opts.timeoutMs} ms. Nothing was minted.`,
  );
}

const SNIFFED: [string, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['image/avif', (b) => b.subarray(4, 12).toString('latin1') === 'ftypavif'],
  ['image/svg+xml', (b) => /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(b.subarray(0, 2048).toString('utf8'))],
];

/** The image's type from its first bytes, else from a declared image/* type; an error when it is no image. */
export function imageType(bytes: Buffer, declared: string, where: string): string {
  const sniffed = SNIFFED.find(([, test]) => test(bytes))?.[0];
  if (sniffed) return sniffed;
  const base = declared.split(';')[0]!.trim().toLowerCase();
  if (base.startsWith('image/')) return base;
  throw new FailedPreconditionError(`${where} is not an image (content type ${base || 'unknown'}). Nothing was minted.`);
}

/** A DNS lookup that refuses names resolving to private addresses (checked on what is connected to). */
function publicOnlyLookup(
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    const inside = list.find((a) => !isPublicAddress(a.address));
    if (inside) {
      const refused: NodeJS.ErrnoException = new Error(`its host resolves to an address that is not public (${inside.address}, ${addressRange(inside.address)})`);
      refused.code = 'PRIVATE_ADDRESS';
      return callback(refused, '');
    }
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}
