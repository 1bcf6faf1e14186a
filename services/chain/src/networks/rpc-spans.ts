import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_RPC_METHOD, ATTR_SERVER_ADDRESS } from '@opentelemetry/semantic-conventions';
import type { JsonRpcError, JsonRpcPayload, JsonRpcResult } from 'ethers';

// Incubating semantic conventions, copied as OpenTelemetry advises instead of importing them.
const ATTR_RPC_SYSTEM = 'rpc.system';
const ATTR_RPC_SERVICE = 'rpc.service';
const ATTR_RPC_JSONRPC_ERROR_CODE = 'rpc.jsonrpc.error_code';

type Answers = (JsonRpcResult | JsonRpcError)[];

/**
 * One CLIENT span per JSON-RPC request (or batch) ethers sends to a chain node, child of the active context
 * (the job a worker is sending): `eth_sendRawTransaction`, or `batch` with every method named. No OpenTelemetry
 * instrumentation knows JSON-RPC, and the embedded networks do not even go over HTTP. Parameters and results
 * are never recorded (signed transactions, callers' data); an error answer's code is.
 */
export async function tracedJsonRpc(network: string, server: string | undefined, payload: JsonRpcPayload | JsonRpcPayload[], send: () => Promise<Answers>): Promise<Answers> {
  const requests = Array.isArray(payload) ? payload : [payload];
  const methods = [...new Set(requests.map((p) => p.method))];
  const name = requests.length === 1 ? requests[0]!.method : 'batch';
  const span = trace.getTracer('@green-impact/chain').startSpan(name, {
    kind: SpanKind.CLIENT,
    attributes: {
      [ATTR_RPC_SYSTEM]: 'jsonrpc',
      [ATTR_RPC_SERVICE]: network,
      [ATTR_RPC_METHOD]: methods.join(','),
      ...(requests.length > 1 ? { 'rpc.jsonrpc.batch_size': requests.length } : {}),
      ...(server ? { [ATTR_SERVER_ADDRESS]: server } : {}),
    },
  });
  try {
    // The HTTP request to a remote node (HTTP instrumentation) is the span's child.
    const answers = await context.with(trace.setSpan(context.active(), span), send);
    const failed = answers.find((a): a is JsonRpcError => 'error' in a);
    if (failed) {
      span.setAttribute(ATTR_RPC_JSONRPC_ERROR_CODE, failed.error.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: `JSON-RPC error ${failed.error.code}` });
    }
    return answers;
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'Error' });
    throw err;
  } finally {
    span.end();
  }
}
