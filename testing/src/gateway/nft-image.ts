import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * An HTTP server on loopback answering an NFT image, for the real chain service to fetch when it mints
 * (start the gateway with `nftImage: { allowPrivateHosts: true }`: its fetcher refuses private hosts by default).
 */
export async function serveNftImage(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/solar.png`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
