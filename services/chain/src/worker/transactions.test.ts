import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bumpedFees, errorText } from './transactions.js';

const sent = { hash: '0x', raw: '0x', nonce: 3, gasLimit: '50000', sentAt: '' };

describe('gas bump of a stuck transaction', () => {
  it('raises EIP-1559 fees by the percentage, at least +10 % as nodes require', () => {
    const fees = bumpedFees({ ...sent, maxFeePerGas: '2000000000', maxPriorityFeePerGas: '1000000000' }, { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }, 20);
    assert.deepEqual(fees, { maxFeePerGas: 2_400_000_001n, maxPriorityFeePerGas: 1_200_000_001n });
  });

  it('follows the network when it now asks for more than the bump', () => {
    const fees = bumpedFees({ ...sent, maxFeePerGas: '100', maxPriorityFeePerGas: '10' }, { maxFeePerGas: 5_000n, maxPriorityFeePerGas: 50n }, 20);
    assert.deepEqual(fees, { maxFeePerGas: 5_000n, maxPriorityFeePerGas: 50n });
  });

  it('bumps legacy gas prices', () => {
    assert.deepEqual(bumpedFees({ ...sent, gasPrice: '1000' }, { gasPrice: 900n }, 10), { gasPrice: 1_101n });
  });
});

describe('node error texts', () => {
  it("reads the node's message where ethers could not classify it", () => {
    const err = Object.assign(new Error('could not coalesce error'), {
      shortMessage: 'could not coalesce error',
      error: { code: -32000, message: "Sender doesn't have enough funds to send tx." },
    });
    assert.equal(errorText(err), "Sender doesn't have enough funds to send tx.");
  });
});
