import { Worker } from 'node:worker_threads';
import type { ContentStore } from '../content/content-store.js';
import type { CertificateFacts } from './certificate-facts.js';

export interface StoredCertificates {
  pdfCid: string;
  jpgCid: string;
}

/** Stable addresses of an NFT's certificate, served by the gateway (GetNft → CIDs → GetContent). */
export function certificateUrls(publicBaseUrl: string, guid: string): { pdf: string; jpg: string; page: string } {
  const page = `${publicBaseUrl.replace(/\/+$/, '')}/certificates/${guid}`;
  return { pdf: `${page}.pdf`, jpg: `${page}.jpg`, page };
}

/** The renderer itself failed on these facts (as opposed to its thread dying): retrying will not help. */
export class CertificateRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateRenderError';
  }
}

interface Pending {
  resolve(files: { pdf: Buffer; jpg: Buffer }): void;
  reject(err: Error): void;
}

/**
 * Renders certificates of trust in a worker thread: drawing and encoding take most of a second of CPU,
 * which on the service's own thread would stall every gRPC call (and, in the embedded default, the
 * gateway) meanwhile. One thread, started on first use, restarted if it dies.
 */
export class CertificateRenderer {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  render(facts: CertificateFacts): Promise<{ pdf: Buffer; jpg: Buffer }> {
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, facts });
    });
  }

  /** Renders the PDF and the JPG and stores both (content-addressed: a second rendering stores nothing new). */
  async store(facts: CertificateFacts, content: ContentStore, pin?: (bytes: Buffer, cid: string) => Promise<void>): Promise<StoredCertificates> {
    const { pdf, jpg } = await this.render(facts);
    const storedPdf = await content.put(pdf, 'application/pdf');
    const storedJpg = await content.put(jpg, 'image/jpeg');
    if (pin) {
      await pin(pdf, storedPdf.cid);
      await pin(jpg, storedJpg.cid);
    }
    return { pdfCid: storedPdf.cid, jpgCid: storedJpg.cid };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
    this.failAll(new Error('the certificate renderer was closed'));
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./render-worker.js', import.meta.url));
    worker.unref();
    worker.on('message', (msg: { id: number; pdf?: Uint8Array; jpg?: Uint8Array; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error !== undefined) p.reject(new CertificateRenderError(`certificate rendering failed: ${msg.error}`));
      else p.resolve({ pdf: Buffer.from(msg.pdf!), jpg: Buffer.from(msg.jpg!) });
    });
    worker.on('error', (err) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(err);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('the certificate renderer stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
