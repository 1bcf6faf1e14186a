import type { DocumentProof } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { html, type Html } from '@green-impact/shared/html';
import { row } from '@green-impact/shared/page';

/**
 * The proof section of a document's page (docs/chain.md "Proofs"): how the document is anchored, its
 * hash, the Merkle path and root, the network, contract and transaction, the verification the service
 * made now, and how anyone re-checks it without the service. Pure: the anchoring panel that a served
 * document's page carries around the anchored bytes (anchoring.ts) shows it.
 */
export function documentProofSection(proof: DocumentProof, verified: boolean, txUrl?: string): Html {
  const merkle = proof.method === 'merkle';
  return html`<h3>Inclusion proof</h3>
<p class="${verified ? 'ok' : 'bad'}">${verified ? 'Verified now: the content matches its proof and the chain.' : 'NOT verified: the content does not match its proof or the chain.'}</p>
<table>
${row('Anchored', merkle ? `in a batch, under a Merkle root (${proof.path.length} step${proof.path.length === 1 ? '' : 's'})` : 'alone, one transaction')}
${row('Document SHA-256', html`<code>${proof.documentSha256}</code>`)}
${row('CID', html`<code>${proof.cid}</code>`)}
${row('Anchor id', html`<code>${proof.anchorId}</code>`)}
${merkle ? row('Leaf', html`<code>${proof.leaf}</code>`) : ''}
${merkle && proof.path.length > 0 ? row('Path', html`${proof.path.map((h, i) => html`${i > 0 ? html`<br>` : ''}<code>${h}</code>`)}`) : ''}
${merkle ? row('Root', html`<code>${proof.root}</code>`) : ''}
${row('Network', `${proof.network} (chain id ${proof.chainId})`)}
${row('Contract', html`<code>${proof.contract}</code>`)}
${row('Transaction', txUrl ? html`<a class="mono" href="${txUrl}">${proof.transaction}</a>` : html`<code>${proof.transaction}</code>`)}
${row('Block', proof.blockNumber || '')}
${row('Format', proof.format)}
</table>
<p>Anyone can check it against a node of the network, without this service: save this proof as JSON, get the
deployment's trust anchor (the contracts and signer to trust, published at <code>/trust-anchor.json</code>: best
from its operator directly) and run
<code>greenimpact-verify-document --proof proof.json --rpc &lt;JSON-RPC URL&gt; --trust trust-anchor.json --content &lt;the document&gt;</code>.</p>`;
}
