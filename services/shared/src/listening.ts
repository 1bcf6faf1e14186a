/** The ports a process bound, by listener: { grpc, metrics } for a service, { http } for the gateway. */
export type ListeningPorts = Record<string, number>;

/** What a process sends over its IPC channel once every listener of it is bound. */
export interface ListeningMessage {
  listening: ListeningPorts;
}

/**
 * Tells the parent which ports this process got, when the parent started it with an IPC channel (the
 * topology launcher scripts/start-distributed.mjs and the tests do): with port 0 the kernel picks them, and
 * whoever starts the processes that call this one must pass on the real ports, not guess them beforehand.
 * Without a channel (Kubernetes, a shell) nothing is sent; the listeners' own log lines name the ports.
 */
export function reportListening(ports: ListeningPorts): void {
  process.send?.({ listening: ports } satisfies ListeningMessage);
}
