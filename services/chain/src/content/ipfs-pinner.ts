/** Kubo refuses blocks above 1 MiB unless told otherwise (bitswap cannot move them between nodes). */
const BIG_BLOCK = 1024 * 1024;

/**
 * Pins content-store blocks to an IPFS node through its HTTP RPC API (Kubo's /api/v0/block/put): the
 * same bytes as a raw block with sha2-256 give the same CID as the content store, so `ipfs://<cid>`
 * resolves on the IPFS network too. The node checks nothing for us; we check the CID it answers.
 */
export class IpfsPinner {
  private readonly api: URL;

  constructor(
    apiUrl: string,
    private readonly timeoutMs = 30_000,
  ) {
    this.api = new URL(apiUrl.replace(/\/+$/, '') + '/');
  }

  /** Where the node is, without credentials (for messages and logs). */
  get shownUrl(): string {
    return this.api.origin;
  }

  async pin(content: Uint8Array, cid: string): Promise<void> {
    const url = new URL('api/v0/block/put', this.api);
    url.searchParams.set('cid-codec', 'raw');
    url.searchParams.set('mhtype', 'sha2-256');
    url.searchParams.set('pin', 'true');
    if (content.byteLength > BIG_BLOCK) url.searchParams.set('allow-big-block', 'true');
    const form = new FormData();
    form.append('data', new Blob([content]), 'block');
    const headers: Record<string, string> = {};
    if (this.api.username) {
      headers['authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(this.api.username)}:${decodeURIComponent(this.api.password)}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const res = await fetch(url, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(this.timeoutMs) });
    const text = await res.text();
    if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
    let key: unknown;
    try {
      key = (JSON.parse(text) as { Key?: unknown }).Key;
    } catch {
      throw new Error(`unreadable answer: ${text.slice(0, 200)}`);
    }
    if (key !== cid) throw new Error(`the node stored ${String(key)} instead of ${cid}`);
  }
}
