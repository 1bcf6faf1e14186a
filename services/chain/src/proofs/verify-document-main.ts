#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { jsonRpcOver, verifyDocumentProof, type DocumentProof } from './document-proof.js';

/**
 * greenimpact-verify-document --proof proof.json --rpc https://node [--content document.html]
 *
 * Checks a document and its proof (the `proof` of a document job, docs/chain.md "Proofs") against any
 * JSON-RPC node of the proof's network. Needs nothing of the service. Exit 0: verified; 1: a check
 * failed; 2: usage.
 */
const USAGE = 'usage: greenimpact-verify-document --proof <proof.json> --rpc <json-rpc url> [--content <file>] [--json]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { proof: { type: 'string' }, rpc: { type: 'string' }, content: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (!values.proof || !values.rpc) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let proof: DocumentProof;
  try {
    const parsed = JSON.parse(readFileSync(values.proof, 'utf8')) as DocumentProof | { proof: DocumentProof };
    // A whole job or document answer is accepted too: its `proof` field is the proof.
    proof = 'proof' in parsed && typeof parsed.proof === 'object' ? parsed.proof : (parsed as DocumentProof);
  } catch (err) {
    process.stderr.write(`cannot read the proof: ${(err as Error).message}\n`);
    return 2;
  }
  const content = values.content ? readFileSync(values.content) : undefined;
  const result = await verifyDocumentProof(proof, jsonRpcOver(values.rpc), content);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    for (const c of result.checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.detail}\n`);
    process.stdout.write(result.verified ? 'verified\n' : 'NOT verified\n');
    if (!content) process.stdout.write('(no --content given: the proof was checked, not the document bytes)\n');
  }
  return result.verified ? 0 : 1;
}

process.exitCode = await main();
