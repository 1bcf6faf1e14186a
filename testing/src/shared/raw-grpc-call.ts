import { Client, credentials, type Metadata, type ServiceError } from '@grpc/grpc-js';

/**
 * A unary call with hand-made metadata and an empty (all-defaults) request, as anything that reaches a
 * service's port could send it: for tests of what a service believes about its caller.
 */
export function rawCall(address: string, path: string, metadata: Metadata): Promise<ServiceError | undefined> {
  const client = new Client(address, credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(path, () => Buffer.alloc(0), (b: Buffer) => b, {}, metadata, (err) => {
      client.close();
      resolve(err ?? undefined);
    });
  });
}
