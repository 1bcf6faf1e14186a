#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { jsonRpcOver, verifyDocumentProof, type DocumentProof } from './document-proof.js';
import { parseTrustAnchor, type TrustAnchor } from './trust-anchor.js';

/**
 * greenimpact-verify-document --proof proof.json --rpc https://node --trust anchor.json [--content document.html]
 * greenimpact-verify-document --proof proof.json --rpc https://node --contract 0x… --signer 0x… [--content …]
 *
 * Checks a document and its proof (the `proof` of a document job, docs/chain.md "Proofs") against any
 * JSON-RPC node of the proof's network, and against whom to trust (docs/chain.md "Trust anchor"): the
 * deployment's published anchor (`--trust`, as GET /trust-anchor.json serves it), or the contract and
 * signer given on the command line for the proof's chain. Needs nothing of the service. Exit 0: verified;
 * 1: a check failed ("not verified: contract not trusted", …); 2: usage.
 */
const USAGE =
  'usage: greenimpact-verify-document --proof <proof.json> --rpc <json-rpc url> (--trust <anchor.json> | --contract <address> --signer <address>) [--content <file>] [--json]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        proof: { type: 'string' }, rpc: { type: 'string' }, content: { type: 'string' }, json: { type: 'boolean' },
        trust: { type: 'string' }, contract: { type: 'string' }, signer: { type: 'string' },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const byHand = values.contract !== undefined || values.signer !== undefined;
  if (!values.proof || !values.rpc || (values.trust === undefined) === !byHand || (byHand && (!values.contract || !values.signer))) {
    process.stderr.write(`${USAGE}\n(a proof names its own contract: say whom to trust, with a trust anchor or a contract and signer)\n`);
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
  let trust: TrustAnchor;
  try {
    trust = values.trust !== undefined
      ? parseTrustAnchor(JSON.parse(readFileSync(values.trust, 'utf8')))
      // On the command line: this contract (whichever of the two the proof's method needs) and signer, for the proof's chain.
      : parseTrustAnchor({ [String(proof.chainId)]: { signer: values.signer, contracts: { documentRoots: values.contract, documentRegistry: values.contract } } });
  } catch (err) {
    process.stderr.write(`cannot read the trust anchor: ${(err as Error).message}\n`);
    return 2;
  }
  const content = values.content ? readFileSync(values.content) : undefined;
  const result = await verifyDocumentProof(proof, jsonRpcOver(values.rpc), content, trust);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    for (const c of result.checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.detail}\n`);
    process.stdout.write(result.verified ? 'verified\n' : `not verified: ${result.reason}\n`);
    if (!content) process.stdout.write('(no --content given: the proof was checked, not the document bytes)\n');
  }
  return result.verified ? 0 : 1;
}

process.exitCode = await main();
