import * as scure from '@scure/starknet';
import { hash } from 'starknet';
import { ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS } from '../../src/core/constants';
import { assertMintAmount, mintTransaction, tokenOf } from '../../src/core/faucet';
import { selectorFromName, toHex } from '../../src/core/felt';
import { chargeableAccount } from '../../src/core/predeployed';

describe('faucet', () => {
  test('a mint is the faucet account signing a permissioned_mint multicall (checked with starknet.js and @scure)', () => {
    const chainId = 0x534e5f5345504f4c4941n;
    const amount = 2n ** 130n + 7n;
    const tx = mintTransaction(0xabcn, amount, 'WEI', 3n, chainId);
    const faucet = chargeableAccount();
    expect(tx.type).toBe('INVOKE');
    if (tx.type !== 'INVOKE') return;
    expect(tx.senderAddress).toBe(faucet.address);
    expect(tx.nonce).toBe(3n);
    expect(tx.calldata).toEqual([
      1n,
      BigInt(ETH_TOKEN_ADDRESS),
      selectorFromName('permissioned_mint'),
      3n,
      0xabcn,
      7n,
      4n,
    ]);
    const txHash = hash.calculateInvokeTransactionHash({
      senderAddress: toHex(tx.senderAddress),
      version: '0x3',
      compiledCalldata: tx.calldata.map((f) => toHex(f)),
      chainId: toHex(chainId) as '0x534e5f5345504f4c4941',
      nonce: '0x3',
      accountDeploymentData: [],
      nonceDataAvailabilityMode: 0,
      feeDataAvailabilityMode: 0,
      resourceBounds: {
        l1_gas: {
          max_amount: tx.resourceBounds.l1Gas.maxAmount,
          max_price_per_unit: tx.resourceBounds.l1Gas.maxPricePerUnit,
        },
        l2_gas: {
          max_amount: tx.resourceBounds.l2Gas.maxAmount,
          max_price_per_unit: tx.resourceBounds.l2Gas.maxPricePerUnit,
        },
        l1_data_gas: {
          max_amount: tx.resourceBounds.l1DataGas.maxAmount,
          max_price_per_unit: tx.resourceBounds.l1DataGas.maxPricePerUnit,
        },
      },
      tip: 0,
      paymasterData: [],
    });
    const [r, s] = tx.signature;
    const publicKey = scure.getPublicKey(toHex(faucet.privateKey));
    expect(scure.verify(new scure.Signature(r, s), txHash, publicKey)).toBe(true);
  });

  test('FRI mints STRK, WEI mints ETH; an amount must fit in a u256', () => {
    expect(tokenOf('FRI')).toBe(BigInt(STRK_TOKEN_ADDRESS));
    expect(tokenOf('WEI')).toBe(BigInt(ETH_TOKEN_ADDRESS));
    expect(() => assertMintAmount(2n ** 256n - 1n)).not.toThrow();
    expect(() => assertMintAmount(2n ** 256n)).toThrow('u256');
    expect(() => assertMintAmount(-1n)).toThrow('u256');
  });
});
