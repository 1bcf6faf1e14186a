// The image's HEALTHCHECK (docker run, docker compose; Kubernetes uses its own native probes instead).
//   healthcheck.mjs grpc <port>         grpc.health.v1.Health/Check of the server as a whole ("")
//   healthcheck.mjs http <port> <path>  GET http://127.0.0.1:<port><path> answers 2xx
// The port is taken from GRPC_PORT / PORT when set, so it follows the service's own setting.
// Exit 0 healthy, 1 not. Distroless has no shell or curl, hence node.
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';

const [mode, defaultPort, path = '/healthz'] = process.argv.slice(2);
const timeoutMs = 2500;

async function http() {
  const port = process.env.PORT || defaultPort;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  return res.ok;
}

async function grpc() {
  const port = process.env.GRPC_PORT || defaultPort;
  // HealthCheckRequest{service: ""} is the empty message; HealthCheckResponse{status: SERVING} is field 1 = 1.
  const Health = makeGenericClientConstructor(
    {
      Check: {
        path: '/grpc.health.v1.Health/Check',
        requestStream: false,
        responseStream: false,
        requestSerialize: () => Buffer.alloc(0),
        requestDeserialize: (b) => b,
        responseSerialize: (b) => b,
        responseDeserialize: (b) => b,
      },
    },
    'Health',
  );
  const client = new Health(`127.0.0.1:${port}`, credentials.createInsecure());
  try {
    const reply = await new Promise((resolve, reject) =>
      client.Check({}, { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res))),
    );
    return reply.length === 2 && reply[0] === 0x08 && reply[1] === 0x01;
  } finally {
    client.close();
  }
}

const check = mode === 'grpc' ? grpc : mode === 'http' ? http : undefined;
if (!check) {
  process.stderr.write('usage: healthcheck.mjs grpc <port> | http <port> <path>\n');
  process.exit(2);
}
check().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    process.stderr.write(`unhealthy: ${err.message}\n`);
    process.exit(1);
  },
);
