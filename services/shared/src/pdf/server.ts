import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { envReader, type Env } from '../config.js';
import { DomainError } from '../errors.js';
import type { Logger } from '../logger.js';
import { metricsRegistry } from '../metrics.js';
import { PdfRenderer, type PdfRendererSettings } from './renderer.js';

export interface PdfServerSettings extends PdfRendererSettings {
  host: string;
  port: number;
  /** How long shutdown waits for renders under way. */
  drainMs: number;
}

/** The renderer's configuration (docs/configuration.md, "PDF renderer"). */
export function loadPdfServerSettings(env: Env): PdfServerSettings {
  const read = envReader(env);
  return {
    chromiumPath: read.string('CHROMIUM_PATH', '/usr/bin/chromium'),
    host: read.string('PDF_RENDERER_HOST', '0.0.0.0'),
    port: read.port('PDF_RENDERER_PORT', 4010),
    ...loadPdfRenderLimits(env),
    drainMs: read.int('PDF_RENDER_DRAIN_MS', 10_000, { min: 0, max: 120_000 }),
  };
}

/** The bounds of rendering, shared by the renderer service and the embedded system's in-process renderer. */
export function loadPdfRenderLimits(env: Env): Omit<PdfRendererSettings, 'chromiumPath'> {
  const read = envReader(env);
  return {
    concurrency: read.int('PDF_RENDER_CONCURRENCY', 2, { min: 1, max: 32 }),
    maxQueue: read.int('PDF_RENDER_MAX_QUEUE', 16, { min: 0, max: 1000 }),
    timeoutMs: read.int('PDF_RENDER_TIMEOUT_MS', 20_000, { min: 100, max: 120_000 }),
    maxHtmlBytes: read.int('PDF_RENDER_MAX_HTML_BYTES', 8 * 1024 * 1024, { min: 1024, max: 64 * 1024 * 1024 }),
    maxPdfBytes: read.int('PDF_RENDER_MAX_PDF_BYTES', 32 * 1024 * 1024, { min: 1024, max: 256 * 1024 * 1024 }),
  };
}

export interface PdfServer {
  port: number;
  renderer: PdfRenderer;
  close(): Promise<void>;
}

const STATUS: Record<string, number> = { INVALID_ARGUMENT: 400, UNAVAILABLE: 503 };

/**
 * The renderer's HTTP face:
 * - `POST /render` with `Content-Type: text/html` → `application/pdf` (400 bad input, 413 too large,
 *   503 busy or timed out, each a JSON `{ error: { code, message } }`);
 * - `GET /healthz` (the process lives), `GET /readyz` (Chromium starts and answers), `GET /metrics`.
 * It serves the gateway only (its NetworkPolicy admits nothing else) and reaches nothing.
 */
export async function startPdfServer(settings: PdfServerSettings, log: Logger): Promise<PdfServer> {
  const renderer = new PdfRenderer(settings, log);
  let draining = false;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const fail = (status: number, code: string, message: string) =>
      res.headersSent ? res.destroy() : res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message } }));
    if (req.method === 'GET' && path === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    if (req.method === 'GET' && path === '/readyz') {
      if (draining) return void fail(503, 'UNAVAILABLE', 'Shutting down.');
      return void renderer.ready().then((ok) => (ok ? res.writeHead(200, { 'content-type': 'text/plain' }).end('ready\n') : fail(503, 'UNAVAILABLE', 'Chromium does not start.')));
    }
    if (req.method === 'GET' && path === '/metrics') {
      return void metricsRegistry.metrics().then((text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text));
    }
    if (path !== '/render') return void fail(404, 'NOT_FOUND', 'Not found.');
    if (req.method !== 'POST') return void fail(405, 'METHOD_NOT_ALLOWED', 'POST the HTML to /render.');
    if (!/^text\/html\b/i.test(req.headers['content-type'] ?? '')) return void fail(415, 'INVALID_ARGUMENT', 'The body is text/html.');
    if (draining) return void fail(503, 'UNAVAILABLE', 'Shutting down.');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > settings.maxHtmlBytes) {
        fail(413, 'INVALID_ARGUMENT', `The HTML is larger than ${settings.maxHtmlBytes} bytes.`);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > settings.maxHtmlBytes) return;
      const started = Date.now();
      renderer.render(Buffer.concat(chunks).toString('utf8')).then(
        (pdf) => {
          log.info({ htmlBytes: size, pdfBytes: pdf.length, ms: Date.now() - started }, 'rendered');
          res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length }).end(pdf);
        },
        (err: unknown) => {
          const status = err instanceof DomainError ? STATUS[err.code] : undefined;
          if (err instanceof DomainError && status) {
            fail(status, err.code, err.message);
            return;
          }
          log.error({ err }, 'render failed');
          fail(500, 'INTERNAL', 'The page could not be printed.');
        },
      );
    });
  });
  server.requestTimeout = settings.timeoutMs * 2;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  log.info({ address: `${settings.host}:${port}` }, 'pdf renderer listening');
  return {
    port,
    renderer,
    async close() {
      draining = true;
      // No new connections; those under way finish (up to drainMs), then Chromium stops.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), settings.drainMs);
      await closed;
      clearTimeout(timer);
      await renderer.close();
      log.info('pdf renderer stopped');
    },
  };
}
