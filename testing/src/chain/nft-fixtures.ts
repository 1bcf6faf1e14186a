import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { SMTPServer } from 'smtp-server';
import { rawCidOf } from '../shared/cid-by-hand.js';

/** A small JPEG (a colour gradient) made here, so no test image is shipped. */
export function testJpeg(width = 96, height = 64, tint = 0): Buffer {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = 80 + (y * 150) / height;
      data[i + 2] = tint;
      data[i + 3] = 255;
    }
  }
  return Buffer.from(jpeg.encode({ data, width, height }, 90).data);
}

export function testPng(width = 48, height = 48): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([20, 140, 90, i % width < width / 2 ? 255 : 128], i * 4);
  return PNG.sync.write(png);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** An HTTP server on 127.0.0.1 serving fixed routes; counts requests per path. */
export async function startImageServer(routes: Record<string, { status?: number; type?: string; body?: Buffer; hang?: boolean; location?: string }>) {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (route.hang) return; // never answers
    res.writeHead(route.status ?? 200, {
      ...(route.type ? { 'content-type': route.type } : {}),
      ...(route.location ? { location: route.location } : {}),
    });
    res.end(route.body ?? '');
  });
  const url = await listen(server);
  return { url, hits, stop: () => (server.closeAllConnections(), close(server)) };
}

/**
 * A stand-in for an IPFS node's /api/v0/block/put: answers the raw-block CID and remembers it. The CID is
 * computed as a node would, not with the service's cidOf, so a wrong CID in the service does not pass.
 */
export async function startFakeIpfsNode() {
  const pinned = new Map<string, Buffer>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://ipfs');
    if (req.method !== 'POST' || url.pathname !== '/api/v0/block/put' || url.searchParams.get('cid-codec') !== 'raw' || url.searchParams.get('pin') !== 'true') {
      res.writeHead(400).end('{"Message":"unexpected call"}');
      return;
    }
    const form = await new Request('http://ipfs/', { method: 'POST', headers: { 'content-type': req.headers['content-type']! }, body: Buffer.concat(chunks) }).formData();
    const file = form.get('data') as Blob;
    const bytes = Buffer.from(await file.arrayBuffer());
    const cid = rawCidOf(bytes);
    pinned.set(cid, bytes);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Key: cid, Size: bytes.length }));
  });
  const url = await listen(server);
  return { url, pinned, stop: () => close(server) };
}

export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1: captures every message; refuses recipients whose
 * address starts with "bounce" (550), as a mail server refuses an unknown mailbox.
 */
export async function startSmtpCapture() {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce')) {
        const err = new Error('No such mailbox here') as Error & { responseCode: number };
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The text of a message with quoted-printable soft breaks and escapes undone (enough to find a code). */
export function decodedMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The receiver code and claim link of a claim e-mail. */
export function claimFromMail(raw: string): { code: string; link: string } {
  const text = decodedMail(raw);
  const code = /receiver code: ([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const link = /(https?:\/\/\S+\/claim\?guid=[^\s"<]+)/.exec(text)?.[1];
  if (!code || !link) throw new Error(`no claim code or link in the message:\n${text.slice(0, 2000)}`);
  return { code, link: link.replace(/&amp;/g, '&') };
}
