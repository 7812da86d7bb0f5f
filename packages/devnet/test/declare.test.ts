import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallData, ec, hash, num, RpcError, stark } from 'starknet';
import { OZ_ACCOUNT_CLASS_HASH, UDC_ADDRESS } from '../src';
import {
  RpcV3Transaction,
  rpc,
  startTestDevnet,
  starknetJsTransactionHash,
  TestDevnet,
  WAIT,
} from './helpers';

// Sierra of test/fixtures/counter.cairo, compiled with wasm-cairo 0.10.2 (test/fixtures/README.md).
const counterClass = JSON.parse(
  readFileSync(join(__dirname, 'fixtures/counter.contract_class.json'), 'utf8'),
);
// Sierra of test/fixtures/owned.cairo (same compiler): a class whose constructor has to run.
const ownedClass = JSON.parse(
  readFileSync(join(__dirname, 'fixtures/owned.contract_class.json'), 'utf8'),
);
// wasm-cairo emits no CASM, so the declarer states the compiled class hash (stored as given).
const STATED_COMPILED_CLASS_HASH = num.toHex(hash.computePoseidonHashOnElements(['0xc0ffee']));

const BOUNDS = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 200_000_000_000n },
  l2_gas: { max_amount: 5_000_000n, max_price_per_unit: 2_000_000n },
  l1_data_gas: { max_amount: 5_000n, max_price_per_unit: 200_000n },
};

describe('declare a real compiled class, deploy through the UDC', () => {
  let t: TestDevnet;
  const classHash = hash.computeContractClassHash(counterClass);
  let declareTxHash: string;

  beforeAll(async () => {
    t = await startTestDevnet();
  });
  afterAll(() => t.devnet.close());

  test('declare: the class gets its real Sierra class hash and is reported as declared', async () => {
    const account = t.account(0);
    const result = await account.declare({
      contract: counterClass,
      compiledClassHash: STATED_COMPILED_CLASS_HASH,
    });
    declareTxHash = result.transaction_hash;
    expect(num.toHex(result.class_hash)).toBe(num.toHex(classHash));
    const receipt = await t.provider.waitForTransaction(result.transaction_hash, WAIT);
    expect(receipt.isSuccess()).toBe(true);

    const tx = (await t.provider.getTransactionByHash(
      result.transaction_hash,
    )) as unknown as RpcV3Transaction;
    expect(tx.type).toBe('DECLARE');
    expect(num.toHex(tx.class_hash as string)).toBe(num.toHex(classHash));
    expect(num.toHex(starknetJsTransactionHash(tx, '0x534e5f5345504f4c4941'))).toBe(
      num.toHex(result.transaction_hash),
    );

    const update = (await t.provider.getStateUpdate('latest')) as unknown as {
      state_diff: { declared_classes: { class_hash: string; compiled_class_hash: string }[] };
    };
    expect(update.state_diff.declared_classes).toEqual([
      { class_hash: num.toHex(classHash), compiled_class_hash: STATED_COMPILED_CLASS_HASH },
    ]);
    const served = (await t.provider.getClassByHash(classHash)) as unknown as {
      sierra_program: string[];
      abi: string;
    };
    expect(served.sierra_program.map((f) => BigInt(f))).toEqual(
      counterClass.sierra_program.map((f: string) => BigInt(f)),
    );
    // What the node serves hashes to the same class hash.
    expect(num.toHex(hash.computeContractClassHash(served as never))).toBe(num.toHex(classHash));
    // Not visible before the block that declared it.
    const declaredIn = (receipt.value as unknown as { block_number: number }).block_number;
    const before = await rpc(t.devnet.rpcUrl, 'starknet_getClass', {
      block_id: { block_number: declaredIn - 1 },
      class_hash: num.toHex(classHash),
    });
    expect(before.error?.code).toBe(28);
  });

  test('51 CLASS_ALREADY_DECLARED on a second declare', async () => {
    const account = t.account(1);
    const error = await account
      .declare(
        { contract: counterClass, compiledClassHash: STATED_COMPILED_CLASS_HASH },
        { resourceBounds: BOUNDS },
      )
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(51);
    expect(declareTxHash).toBeDefined();
  });

  test('UDC deploy of the declared class (no constructor) at the address starknet.js predicts', async () => {
    const account = t.account(0);
    const salt = stark.randomAddress();
    const deployment = await account.deployContract(
      { classHash, salt, unique: true, constructorCalldata: [] },
      WAIT,
    );
    const expected = hash.calculateContractAddressFromHash(
      hash.computePedersenHash(account.address, salt),
      classHash,
      [],
      UDC_ADDRESS,
    );
    expect(num.toHex(deployment.contract_address)).toBe(num.toHex(expected));
    expect(num.toHex(await t.provider.getClassHashAt(expected))).toBe(num.toHex(classHash));

    // A call into a class the devnet cannot run is a clear contract error, never a made-up result.
    const reply = await rpc(t.devnet.rpcUrl, 'starknet_call', {
      request: {
        contract_address: num.toHex(expected),
        entry_point_selector: hash.getSelectorFromName('get_count'),
        calldata: [],
      },
      block_id: 'latest',
    });
    expect(reply.error?.code).toBe(40);
    expect((reply.error?.data as { revert_error: string }).revert_error).toMatch(
      /declared but cannot be executed by this devnet/,
    );
    // A selector the class does not have is 21 ENTRYPOINT_NOT_FOUND, as on a real node.
    const missing = await rpc(t.devnet.rpcUrl, 'starknet_call', {
      request: {
        contract_address: num.toHex(expected),
        entry_point_selector: hash.getSelectorFromName('no_such_function'),
        calldata: [],
      },
      block_id: 'latest',
    });
    expect(missing.error).toEqual({
      code: 21,
      message: 'Requested entry point does not exist in the contract',
    });
    const viaProvider = await t.provider
      .callContract({ contractAddress: num.toHex(expected), entrypoint: 'no_such_function' })
      .catch((e) => e);
    expect(viaProvider).toBeInstanceOf(RpcError);
    expect(viaProvider.code).toBe(21);
  });

  test('UDC deploy of a native class runs its constructor (OpenZeppelin account, not unique)', async () => {
    const account = t.account(2);
    const publicKey = ec.starkCurve.getStarkKey(stark.randomAddress());
    const salt = '0x77';
    const deployment = await account.deployContract(
      {
        classHash: OZ_ACCOUNT_CLASS_HASH,
        salt,
        unique: false,
        constructorCalldata: CallData.compile([publicKey]),
      },
      WAIT,
    );
    const expected = hash.calculateContractAddressFromHash(
      salt,
      OZ_ACCOUNT_CLASS_HASH,
      [publicKey],
      0,
    );
    expect(num.toHex(deployment.contract_address)).toBe(num.toHex(expected));
    const key = await t.provider.callContract({
      contractAddress: expected,
      entrypoint: 'get_public_key',
    });
    expect(key).toEqual([num.toHex(publicKey)]);
    // The same deployment again collides and reverts.
    const again = await account.execute(
      {
        contractAddress: UDC_ADDRESS,
        entrypoint: 'deploy_contract',
        calldata: [OZ_ACCOUNT_CLASS_HASH, salt, 0, 1, publicKey],
      },
      { resourceBounds: BOUNDS },
    );
    const receipt = await t.provider.waitForTransaction(again.transaction_hash, WAIT);
    expect(receipt.isReverted()).toBe(true);
    expect((receipt.value as unknown as { revert_reason: string }).revert_reason).toMatch(
      /unavailable for deployment/,
    );
  });

  test('deploying a declared class whose constructor must run reverts with a clear reason', async () => {
    const account = t.account(3);
    const declared = await account.declare({
      contract: ownedClass,
      compiledClassHash: STATED_COMPILED_CLASS_HASH,
    });
    await t.provider.waitForTransaction(declared.transaction_hash, WAIT);
    expect(num.toHex(declared.class_hash)).toBe(
      num.toHex(hash.computeContractClassHash(ownedClass)),
    );
    const deploy = await account.execute(
      {
        contractAddress: UDC_ADDRESS,
        entrypoint: 'deploy_contract',
        calldata: [declared.class_hash, '0x1', 0, 1, '0x42'],
      },
      { resourceBounds: BOUNDS },
    );
    const receipt = await t.provider.waitForTransaction(deploy.transaction_hash, WAIT);
    expect(receipt.isReverted()).toBe(true);
    expect((receipt.value as unknown as { revert_reason: string }).revert_reason).toMatch(
      /has a constructor that this devnet cannot execute/,
    );
    const address = hash.calculateContractAddressFromHash('0x1', declared.class_hash, ['0x42'], 0);
    expect(
      (
        await rpc(t.devnet.rpcUrl, 'starknet_getClassHashAt', {
          block_id: 'latest',
          contract_address: address,
        })
      ).error?.code,
    ).toBe(20);
  });

  test('deploy_account of an undeclared class is 28 CLASS_HASH_NOT_FOUND', async () => {
    const reply = await rpc(t.devnet.rpcUrl, 'starknet_addDeployAccountTransaction', {
      deploy_account_transaction: {
        type: 'DEPLOY_ACCOUNT',
        version: '0x3',
        signature: [],
        nonce: '0x0',
        contract_address_salt: '0x1',
        class_hash: '0x1234',
        constructor_calldata: [],
        resource_bounds: {
          l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
          l2_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
          l1_data_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
        },
        tip: '0x0',
        paymaster_data: [],
        nonce_data_availability_mode: 'L1',
        fee_data_availability_mode: 'L1',
      },
    });
    expect(reply.error?.code).toBe(28);
  });
});
