import { parentPort } from 'node:worker_threads';
import type { CertificateFacts } from './certificate-facts.js';
import { renderCertificateJpg } from './certificate-jpg.js';
import { renderCertificatePdf } from './certificate-pdf.js';

/** The thread that draws certificates (see CertificateRenderer): one request at a time, in order. */
parentPort!.on('message', (msg: { id: number; facts: CertificateFacts }) => {
  void (async () => {
    try {
      const facts = { ...msg.facts, ...(msg.facts.image ? { image: { ...msg.facts.image, bytes: Buffer.from(msg.facts.image.bytes) } } : {}) };
      const pdf = await renderCertificatePdf(facts);
      const jpg = renderCertificateJpg(facts);
      parentPort!.postMessage({ id: msg.id, pdf, jpg });
    } catch (err) {
      parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
    }
  })();
});
