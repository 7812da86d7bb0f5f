import {
  Account,
  CallData,
  defaultDeployer,
  ec,
  hash,
  num,
  outsideExecution,
  OutsideExecutionVersion,
  RpcError,
  stark,
} from 'starknet';
import { ARGENT_ACCOUNT_CLASS_HASH, ETH_TOKEN_ADDRESS, UDC_ADDRESS } from '../src';
import { rpc, startTestDevnet, strkBalance, TestDevnet, transferCall, WAIT } from './helpers';

// A relayer deploys a user's Argent account through the UDC with unique = false: the address is
// the one a deploy-account transaction would give it (deployer 0, salt = public key), which is
// where the user's funds already wait. Then the account works on its own.

interface ReceiptValue {
  execution_status: string;
  transaction_hash: string;
  events: { from_address: string; keys: string[]; data: string[] }[];
}

function newArgentKey() {
  const privateKey = stark.randomAddress();
  const publicKey = ec.starkCurve.getStarkKey(privateKey);
  const constructorCalldata = CallData.compile([publicKey, 0]);
  const address = num.toHex(
    hash.calculateContractAddressFromHash(
      publicKey,
      ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata,
      0,
    ),
  );
  return { privateKey, publicKey, constructorCalldata, address };
}

async function ethBalance(t: TestDevnet, address: string): Promise<bigint> {
  const reply = await rpc(t.devnet.rpcUrl, 'devnet_getAccountBalance', { address, unit: 'WEI' });
  return BigInt((reply.result as { amount: string }).amount);
}

describe('UDC deploy with unique = false at the counterfactual address', () => {
  let t: TestDevnet;
  let relayer: Account;
  beforeAll(async () => {
    t = await startTestDevnet();
    relayer = t.account(1);
  });
  afterAll(() => t.devnet.close());

  test('lands where a deploy-account transaction would, and the account then transacts itself', async () => {
    const user = newArgentKey();
    const { calls, addresses } = defaultDeployer.buildDeployerCall(
      {
        classHash: ARGENT_ACCOUNT_CLASS_HASH,
        salt: user.publicKey,
        unique: false,
        constructorCalldata: user.constructorCalldata,
      },
      relayer.address,
    );
    // starknet.js's own UDC address for unique = false is the deploy-account address.
    expect(num.toHex(addresses[0])).toBe(user.address);
    expect(calls[0].contractAddress).toBe(num.toHex(UDC_ADDRESS));

    const sent = await relayer.execute(calls);
    const receipt = (await t.provider.waitForTransaction(sent.transaction_hash, WAIT))
      .value as unknown as ReceiptValue;
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const deployed = defaultDeployer.parseDeployerEvent(receipt as never);
    expect(num.toHex(deployed.address)).toBe(user.address);
    expect(num.toHex(deployed.deployer)).toBe(num.toHex(relayer.address));
    expect(deployed.unique).toBe('0x0');
    expect(num.toHex(deployed.classHash)).toBe(num.toHex(ARGENT_ACCOUNT_CLASS_HASH));
    expect(num.toHex(deployed.salt)).toBe(num.toHex(user.publicKey));
    expect(num.toHex(await t.provider.getClassHashAt(user.address))).toBe(
      num.toHex(ARGENT_ACCOUNT_CLASS_HASH),
    );
    const [owner] = await t.provider.callContract({
      contractAddress: user.address,
      entrypoint: 'get_owner',
    });
    expect(owner).toBe(num.toHex(user.publicKey));

    // Funded afterwards, the account sends its own transaction from nonce 0.
    await rpc(t.devnet.rpcUrl, 'devnet_mint', {
      address: user.address,
      amount: 10 ** 18,
      unit: 'FRI',
    });
    const account = new Account({
      provider: t.provider,
      address: user.address,
      signer: user.privateKey,
    });
    expect(await account.getNonce()).toBe('0x0');
    const recipient = t.devnet.predeployedAccounts[2].address;
    const before = await strkBalance(t.provider, recipient);
    const own = await account.execute(transferCall(recipient, 5n));
    expect((await t.provider.waitForTransaction(own.transaction_hash, WAIT)).isSuccess()).toBe(
      true,
    );
    expect(await strkBalance(t.provider, recipient)).toBe(before + 5n);
    expect(await account.getNonce()).toBe('0x1');

    // A deploy-account transaction for the same address is now refused.
    const again = await account
      .deployAccount({
        classHash: ARGENT_ACCOUNT_CLASS_HASH,
        constructorCalldata: user.constructorCalldata,
        addressSalt: user.publicKey,
      })
      .catch((e) => e);
    expect(again).toBeInstanceOf(RpcError);
    expect(String(again.message)).toMatch(/already deployed/);
  });

  test('deploy and outside execution in one relayer transaction, for an account holding only ETH', async () => {
    const user = newArgentKey();
    const recipient = t.devnet.predeployedAccounts[3].address;
    await rpc(t.devnet.rpcUrl, 'devnet_mint', {
      address: user.address,
      amount: 10 ** 15,
      unit: 'WEI',
    });
    expect(await strkBalance(t.provider, user.address)).toBe(0n);

    // The user signs before the account exists: the SNIP-9 version and the nonce cannot be read
    // from the chain yet, so they are given.
    const signer = new Account({
      provider: t.provider,
      address: user.address,
      signer: user.privateKey,
    });
    const { timestamp } = await t.provider.getBlock('latest');
    const outside = await signer.getOutsideTransaction(
      { caller: relayer.address, execute_after: timestamp - 60, execute_before: timestamp + 600 },
      [transferCall(recipient, 4_000n, ETH_TOKEN_ADDRESS)],
      OutsideExecutionVersion.V1,
      stark.randomAddress(),
    );
    const deploy = defaultDeployer.buildDeployerCall(
      {
        classHash: ARGENT_ACCOUNT_CLASS_HASH,
        salt: user.publicKey,
        unique: false,
        constructorCalldata: user.constructorCalldata,
      },
      relayer.address,
    );
    const ethBefore = await ethBalance(t, recipient);
    const sent = await relayer.execute([
      ...deploy.calls,
      ...outsideExecution.buildExecuteFromOutsideCall(outside),
    ]);
    const receipt = (await t.provider.waitForTransaction(sent.transaction_hash, WAIT))
      .value as unknown as ReceiptValue;
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const emitters = receipt.events.map((e) => [num.toHex(e.from_address), num.toHex(e.keys[0])]);
    expect(emitters).toEqual([
      [user.address, hash.getSelectorFromName('AccountCreated')],
      [num.toHex(UDC_ADDRESS), hash.getSelectorFromName('ContractDeployed')],
      [num.toHex(ETH_TOKEN_ADDRESS), hash.getSelectorFromName('Transfer')],
      [user.address, hash.getSelectorFromName('TransactionExecuted')],
      [expect.any(String), hash.getSelectorFromName('Transfer')], // the relayer's fee
    ]);
    expect(await ethBalance(t, recipient)).toBe(ethBefore + 4_000n);
    expect(await ethBalance(t, user.address)).toBe(10n ** 15n - 4_000n);
    expect(await strkBalance(t.provider, user.address)).toBe(0n);
    expect(await t.provider.getNonceForAddress(user.address)).toBe('0x0');
  });
});
