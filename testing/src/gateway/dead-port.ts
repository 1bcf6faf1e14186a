import net from 'node:net';

/**
 * A loopback port where nothing serves: every connection is reset as soon as it is accepted (to a client as
 * good as refused). The port stays held until close(), so no other test's listener can take it meanwhile, as
 * it could a port picked free and released.
 */
export async function deadPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
