import { chromium, type Browser } from 'playwright-core';
import { Counter, Histogram } from 'prom-client';
import { Bulkhead } from '../bulkhead.js';
import { InvalidArgumentError, UnavailableError } from '../errors.js';
import type { Logger } from '../logger.js';
import { metricsRegistry } from '../metrics.js';

export interface PdfRendererSettings {
  /** The Chromium binary (CHROMIUM_PATH; Debian's `chromium` at /usr/bin/chromium). */
  chromiumPath: string;
  /** Pages printed at once (each a browser context). */
  concurrency: number;
  /** Renders waiting beyond `concurrency`; one more is refused at once (503). */
  maxQueue: number;
  /** One render, from its turn to its last byte. */
  timeoutMs: number;
  /** The largest HTML accepted. */
  maxHtmlBytes: number;
  /** The largest PDF answered. */
  maxPdfBytes: number;
}

const renders = new Counter({
  name: 'pdf_renders_total',
  help: 'HTML pages printed to PDF, by outcome (ok, refused, timeout, too_large, failed).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
const renderSeconds = new Histogram({
  name: 'pdf_render_seconds',
  help: 'Time to print one page to PDF, waiting for a turn excluded.',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [metricsRegistry],
});
const blockedRequests = new Counter({
  name: 'pdf_blocked_requests_total',
  help: 'Requests a printed page tried to make; every one is aborted.',
  registers: [metricsRegistry],
});

/**
 * Prints an HTML page to PDF through headless Chromium, the same engine that shows the page, so the PDF
 * is the page (docs/decisions.md, "PDF from the page through Chromium"). The page gets no JavaScript and
 * no network: every request it makes (fonts, images, links) is aborted, so an HTML cannot reach anything
 * from the renderer. A4 unless the page's print CSS says otherwise (`preferCSSPageSize`). Bounded: at most
 * `concurrency` pages at once, `maxQueue` waiting, each within `timeoutMs`.
 */
export class PdfRenderer {
  private browser: Promise<Browser> | undefined;
  private readonly bulkhead: Bulkhead;
  private closed = false;

  constructor(
    private readonly settings: PdfRendererSettings,
    private readonly log: Logger,
  ) {
    this.bulkhead = new Bulkhead({ limit: settings.concurrency, maxQueue: settings.maxQueue, maxWaitMs: settings.timeoutMs }, 'The PDF renderer is busy; try again in a moment.', 'pdf_renderer');
  }

  /** Starts Chromium (once; again after it died). */
  start(): Promise<Browser> {
    if (this.closed) return Promise.reject(new UnavailableError('The PDF renderer is shutting down.'));
    this.browser ??= chromium
      .launch({ executablePath: this.settings.chromiumPath, headless: true, args: ['--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'] })
      .then((browser) => {
        browser.on('disconnected', () => {
          if (this.closed) return;
          this.log.warn('chromium exited; the next render starts it again');
          this.browser = undefined;
        });
        return browser;
      })
      .catch((err: unknown) => {
        this.browser = undefined;
        throw err;
      });
    return this.browser;
  }

  /** Chromium runs and answers. */
  async ready(): Promise<boolean> {
    try {
      return (await this.start()).isConnected();
    } catch (err) {
      this.log.error({ err }, 'chromium does not start');
      return false;
    }
  }

  /** The PDF of `html`. Bad input: InvalidArgumentError; busy, timed out or too large: UnavailableError. */
  async render(html: string): Promise<Buffer> {
    if (Buffer.byteLength(html, 'utf8') > this.settings.maxHtmlBytes) {
      renders.inc({ outcome: 'too_large' });
      throw new InvalidArgumentError(`The HTML is larger than ${this.settings.maxHtmlBytes} bytes.`);
    }
    let release: () => void;
    try {
      release = await this.bulkhead.acquire(AbortSignal.timeout(this.settings.timeoutMs));
    } catch (err) {
      renders.inc({ outcome: 'refused' });
      throw err;
    }
    const stop = renderSeconds.startTimer();
    try {
      const pdf = await this.withTimeout(this.print(html));
      if (pdf.length > this.settings.maxPdfBytes) {
        renders.inc({ outcome: 'too_large' });
        throw new UnavailableError(`The PDF is larger than ${this.settings.maxPdfBytes} bytes.`);
      }
      renders.inc({ outcome: 'ok' });
      return pdf;
    } catch (err) {
      if (!(err instanceof UnavailableError)) renders.inc({ outcome: 'failed' });
      throw err;
    } finally {
      stop();
      release();
    }
  }

  private async print(html: string): Promise<Buffer> {
    const browser = await this.start();
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true, serviceWorkers: 'block' });
    try {
      await context.route('**/*', (route) => {
        blockedRequests.inc();
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load', timeout: this.settings.timeoutMs });
      await page.emulateMedia({ media: 'print' });
      return await page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  private withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        renders.inc({ outcome: 'timeout' });
        reject(new UnavailableError(`The PDF took longer than ${this.settings.timeoutMs} ms.`));
      }, this.settings.timeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  /** Waits for no render, then stops Chromium. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close();
  }
}
