import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { startGrpcServer, type StartedGrpcServer } from '@green-impact/shared/grpc/server';
import type { Logger } from '@green-impact/shared/logger';

/** Serves one fake service over real gRPC on a free loopback port, with reflection from its proto file. */
export function serveFake(
  service: { name: string; definition: object; implementation: UntypedServiceImplementation; protoFile: keyof typeof protoFiles },
  log: Logger,
): Promise<StartedGrpcServer> {
  return startGrpcServer({
    services: [{ name: service.name, definition: service.definition as unknown as ServiceDefinition, implementation: service.implementation }],
    host: '127.0.0.1',
    port: 0,
    protoRoot,
    protoFiles: [protoFiles[service.protoFile]],
    log,
    reflection: true,
  });
}
