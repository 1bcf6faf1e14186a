import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { sha256 } from 'multiformats/hashes/sha2';
import { InvalidArgumentError } from '@green-impact/shared/errors';

export interface StoredContent {
  cid: string;
  /** Lower-case hex SHA-256 of the bytes (the digest inside the CID). */
  sha256: string;
  size: number;
  contentType: string;
}

export interface ReadContent extends StoredContent {
  content: Buffer;
}

/** The CID of some bytes as IPFS computes it for a raw block: CIDv1, raw codec, sha2-256, base32. */
export function cidOf(content: Uint8Array): { cid: string; sha256: string } {
  const digest = createHash('sha256').update(content).digest();
  return { cid: CID.createV1(raw.code, createDigest(sha256.code, digest)).toString(), sha256: digest.toString('hex') };
}

/** Parses a CID, accepting only what this store makes (CIDv1, raw, sha2-256); undefined otherwise. */
export function parseStoreCid(text: string): CID | undefined {
  try {
    const cid = CID.parse(text.trim());
    return cid.version === 1 && cid.code === raw.code && cid.multihash.code === sha256.code ? cid : undefined;
  } catch {
    return undefined;
  }
}

/** Where report documents, NFT metadata, images and certificates live, by CID. */
export interface ContentStore {
  init(): Promise<void>;
  /** Stores the bytes (idempotent: same bytes, same CID). */
  put(content: Uint8Array, contentType: string): Promise<StoredContent>;
  /** The stored bytes, or undefined when the CID is not in the store; INVALID_ARGUMENT for a foreign CID. */
  get(cidText: string): Promise<ReadContent | undefined>;
}

/** A CID this store makes, or INVALID_ARGUMENT. */
export function requireStoreCid(cidText: string): string {
  const cid = parseStoreCid(cidText);
  if (!cid) throw new InvalidArgumentError(`"${cidText}" is not a content id of this store (CIDv1, raw, sha2-256).`);
  return cid.toString();
}

/**
 * Content-addressed files under one directory (the embedded default; several replicas would need a
 * ReadWriteMany volume, see DatabaseContentStore): the bytes at blocks/<cid>, the content type at
 * meta/<cid>.json. Writes are atomic (temp file + rename) and idempotent (same bytes, same CID, same
 * file). A file changed on disk is not trusted: `get` reports the digest of what it read, and callers
 * that need integrity compare it with the CID (see documents).
 */
export class FolderContentStore implements ContentStore {
  constructor(private readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(join(this.dir, 'blocks'), { recursive: true });
    await mkdir(join(this.dir, 'meta'), { recursive: true });
  }

  async put(content: Uint8Array, contentType: string): Promise<StoredContent> {
    const { cid, sha256: hex } = cidOf(content);
    const meta = { contentType, size: content.byteLength };
    await atomicWrite(this.blockPath(cid), content);
    await atomicWrite(this.metaPath(cid), JSON.stringify(meta));
    return { cid, sha256: hex, ...meta };
  }

  /** The stored bytes, or undefined when the CID is not in the store. */
  async get(cidText: string): Promise<ReadContent | undefined> {
    const key = requireStoreCid(cidText);
    let content: Buffer;
    try {
      content = await readFile(this.blockPath(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    let contentType = 'application/octet-stream';
    try {
      contentType = (JSON.parse(await readFile(this.metaPath(key), 'utf8')) as { contentType: string }).contentType;
    } catch {
      // Bytes without metadata are still served, as generic bytes.
    }
    const hex = createHash('sha256').update(content).digest('hex');
    return { cid: key, sha256: hex, size: content.byteLength, contentType, content };
  }

  private blockPath(cid: string): string {
    return join(this.dir, 'blocks', cid);
  }

  private metaPath(cid: string): string {
    return join(this.dir, 'meta', `${cid}.json`);
  }
}

let tmpCounter = 0;

async function atomicWrite(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.${process.pid}.${++tmpCounter}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}
