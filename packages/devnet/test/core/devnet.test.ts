import { sign } from '@scure/starknet';
import { hash } from 'starknet';
import { STRK_TOKEN_ADDRESS } from '../../src/core/constants';
import { Devnet } from '../../src/core/devnet';
import { selectorFromName, toHex } from '../../src/core/felt';
import { InvokeTransaction, transactionHash } from '../../src/core/transactions';

// The core on its own: no server, no starknet.js Account. Transactions are built and signed here.

const BOUNDS = {
  l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 12n },
  l2Gas: { maxAmount: 3_000_000n, maxPricePerUnit: 10n ** 7n },
  l1DataGas: { maxAmount: 10_000n, maxPricePerUnit: 10n ** 6n },
};

function transfer(
  devnet: Devnet,
  from: number,
  to: bigint,
  amount: bigint,
  nonce: bigint,
): InvokeTransaction {
  const account = devnet.predeployedAccounts[from];
  const tx: InvokeTransaction = {
    type: 'INVOKE',
    version: 3n,
    senderAddress: BigInt(account.address),
    calldata: [1n, BigInt(STRK_TOKEN_ADDRESS), selectorFromName('transfer'), 3n, to, amount, 0n],
    nonce,
    resourceBounds: BOUNDS,
    tip: 0n,
    paymasterData: [],
    accountDeploymentData: [],
    proofFacts: [],
    nonceDataAvailabilityMode: 'L1',
    feeDataAvailabilityMode: 'L1',
    signature: [],
  };
  const signature = sign(toHex(transactionHash(tx, devnet.chainId)), account.private_key);
  tx.signature = [signature.r, signature.s];
  return tx;
}

describe('Devnet core', () => {
  let clock = 1_700_000_000;
  const now = (): number => clock;

  test('a signed transfer: hash, balances, nonce, fee, receipt data', () => {
    const devnet = new Devnet({ accounts: 2, now });
    const recipient = 0xbeefn;
    const tx = transfer(devnet, 0, recipient, 1234n, 0n);
    const record = devnet.addTransaction(tx);
    expect(record.executionStatus).toBe('SUCCEEDED');
    expect(toHex(record.hash)).toBe(
      toHex(
        BigInt(
          hash.calculateInvokeTransactionHash({
            senderAddress: devnet.predeployedAccounts[0].address,
            version: '0x3',
            compiledCalldata: tx.calldata.map((f) => toHex(f)),
            chainId: '0x534e5f5345504f4c4941',
            nonce: 0,
            accountDeploymentData: [],
            nonceDataAvailabilityMode: 0,
            feeDataAvailabilityMode: 0,
            resourceBounds: {
              l1_gas: { max_amount: 0n, max_price_per_unit: 10n ** 12n },
              l2_gas: { max_amount: 3_000_000n, max_price_per_unit: 10n ** 7n },
              l1_data_gas: { max_amount: 10_000n, max_price_per_unit: 10n ** 6n },
            },
            tip: 0,
            paymasterData: [],
          }),
        ),
      ),
    );
    expect(devnet.balanceOf(recipient, 'FRI', 'latest')).toBe(1234n);
    const sender = BigInt(devnet.predeployedAccounts[0].address);
    expect(devnet.getNonce(sender, 'latest')).toBe(1n);
    expect(devnet.balanceOf(sender, 'FRI', 'latest')).toBe(10n ** 21n - 1234n - record.actualFee);
    // Instant mode: the transaction closed block 1.
    expect(devnet.latestBlock().number).toBe(1);
    expect(devnet.latestBlock().transactions[0]).toBe(record);
  });

  test('interval mode: the pre-confirmed block collects transactions until closed', () => {
    const devnet = new Devnet({ accounts: 2, blockPerTransaction: false, now });
    devnet.addTransaction(transfer(devnet, 0, 0x1n, 1n, 0n));
    devnet.addTransaction(transfer(devnet, 0, 0x1n, 1n, 1n));
    expect(devnet.latestBlock().number).toBe(0);
    expect(devnet.balanceOf(0x1n, 'FRI', 'pre_confirmed')).toBe(2n);
    expect(devnet.balanceOf(0x1n, 'FRI', 'latest')).toBe(0n);
    clock += 10;
    const block = devnet.closeBlock();
    expect(block.transactions).toHaveLength(2);
    expect(block.timestamp).toBe(clock);
    expect(devnet.balanceOf(0x1n, 'FRI', 'latest')).toBe(2n);
    // History stays readable.
    expect(devnet.balanceOf(0x1n, 'FRI', { block_number: 0 })).toBe(0n);
  });

  test('errors: a replayed transaction is 59, a stale nonce 52, a forged signature 55', () => {
    const devnet = new Devnet({ accounts: 2, now });
    const tx = transfer(devnet, 0, 0x1n, 1n, 0n);
    devnet.addTransaction(tx);
    expect(() => devnet.addTransaction(tx)).toThrow(expect.objectContaining({ code: 59 }));
    expect(() => devnet.addTransaction(transfer(devnet, 0, 0x1n, 2n, 0n))).toThrow(
      expect.objectContaining({ code: 52 }),
    );
    const forged = transfer(devnet, 1, 0x1n, 1n, 0n);
    forged.signature = [forged.signature[0], forged.signature[1] + 1n];
    expect(() => devnet.addTransaction(forged)).toThrow(expect.objectContaining({ code: 55 }));
  });

  test('dump and load replay to the same chain', () => {
    const devnet = new Devnet({ accounts: 2, now });
    devnet.addTransaction(transfer(devnet, 0, 0x1n, 5n, 0n));
    devnet.mint(0x2n, 7n, 'WEI');
    devnet.addTransaction(transfer(devnet, 1, 0x1n, 6n, 0n));
    const loaded = Devnet.load(JSON.parse(JSON.stringify(devnet.dump())), now);
    expect(loaded.latestBlock().hash).toBe(devnet.latestBlock().hash);
    expect(loaded.balanceOf(0x1n, 'FRI')).toBe(11n);
    expect(loaded.balanceOf(0x2n, 'WEI')).toBe(7n);
    expect(loaded.dump()).toEqual(devnet.dump());
  });
});
