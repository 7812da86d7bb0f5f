import { ARGENT_ACCOUNT_CLASS_HASH } from '../../src/core/constants';
import { Devnet } from '../../src/core/devnet';
import { StarknetRpcError } from '../../src/core/errors';
import { NATIVE_COMPILED_CLASS_HASHES } from '../../src/core/nativeCasm';
import { DeclareTransaction } from '../../src/core/transactions';

// A declare of a native class whose CASM this devnet knows (Argent 0.3.1) must carry that CASM's
// compiled class hash, Blake2s since Starknet 0.14.1: another one is 60, checked before 51 as a
// gateway compiles before the sequencer runs. The class body here is a stand-in with the class
// hash set directly: the Sierra artifact is not part of this repository.

const ARGENT = BigInt(ARGENT_ACCOUNT_CLASS_HASH);

function declare(devnet: Devnet, compiledClassHash: bigint): DeclareTransaction {
  return {
    type: 'DECLARE',
    version: 3n,
    senderAddress: BigInt(devnet.predeployedAccounts[0].address),
    signature: [],
    nonce: 0n,
    resourceBounds: {
      l1Gas: { maxAmount: 0n, maxPricePerUnit: 10n ** 12n },
      l2Gas: { maxAmount: 10n ** 7n, maxPricePerUnit: 10n ** 7n },
      l1DataGas: { maxAmount: 10_000n, maxPricePerUnit: 10n ** 6n },
    },
    tip: 0n,
    paymasterData: [],
    nonceDataAvailabilityMode: 'L1',
    feeDataAvailabilityMode: 'L1',
    compiledClassHash,
    accountDeploymentData: [],
    contractClass: {
      sierra_program: ['0x1'],
      contract_class_version: '0.1.0',
      entry_points_by_type: { EXTERNAL: [], L1_HANDLER: [], CONSTRUCTOR: [] },
      abi: '[]',
    },
    classHash: ARGENT,
  };
}

function codeOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof StarknetRpcError) return error.code;
    throw error;
  }
  return undefined;
}

describe('compiled class hash of a native class', () => {
  const known = NATIVE_COMPILED_CLASS_HASHES.get(ARGENT)!;

  test.each([
    ['block per transaction', true],
    ['block time (checked at admission)', false],
  ])('%s: a wrong or pre-0.14.1 (Poseidon) hash is 60; the Blake2s one is 51', (_, perTx) => {
    const devnet = new Devnet({ blockPerTransaction: perTx });
    expect(codeOf(() => devnet.submitTransaction(declare(devnet, 0xc0ffeen)))).toBe(60);
    expect(codeOf(() => devnet.submitTransaction(declare(devnet, known.poseidon)))).toBe(60);
    // The right hash gets past the check, to the class being declared already (genesis).
    expect(codeOf(() => devnet.submitTransaction(declare(devnet, known.blake)))).toBe(51);
  });

  test('a chain before Starknet 0.14.1 wants the Poseidon hash instead', () => {
    const devnet = new Devnet({ starknetVersion: '0.14.0' });
    expect(codeOf(() => devnet.submitTransaction(declare(devnet, known.blake)))).toBe(60);
    expect(codeOf(() => devnet.submitTransaction(declare(devnet, known.poseidon)))).toBe(51);
  });

  test('simulations refuse it too (41 naming the mismatch)', () => {
    const devnet = new Devnet();
    try {
      devnet.simulate(
        [declare(devnet, 0x1n)],
        'latest',
        { skipValidate: true, skipFeeCharge: true },
        false,
      );
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as StarknetRpcError).code).toBe(41);
      expect(JSON.stringify((error as StarknetRpcError).data)).toMatch(/compiled class hash/);
    }
  });

  test('the state keeps the known compiled class hash of the native class', () => {
    const devnet = new Devnet();
    expect(devnet.classes.get(ARGENT, 0)?.compiledClassHash).toBe(known.blake);
  });
});
