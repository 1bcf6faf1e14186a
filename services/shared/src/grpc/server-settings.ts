import type { EnvReader } from '../config.js';

/** Where a standalone service listens, and whether it tells anyone who asks what it serves. */
export interface GrpcServerSettings {
  host: string;
  port: number;
  reflection: boolean;
}

/**
 * GRPC_HOST (0.0.0.0: a container must be reachable by its Service; the all-in-one process binds
 * loopback itself), GRPC_PORT, and GRPC_REFLECTION (default on, off with NODE_ENV=production).
 */
export function loadGrpcServerSettings(read: EnvReader, defaultPort: number): GrpcServerSettings {
  return {
    host: read.string('GRPC_HOST', '0.0.0.0'),
    port: read.port('GRPC_PORT', defaultPort),
    reflection: grpcReflection(read),
  };
}

export function grpcReflection(read: EnvReader): boolean {
  return read.bool('GRPC_REFLECTION', read.string('NODE_ENV', 'development') !== 'production');
}
