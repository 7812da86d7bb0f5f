/**
 * A hostile dapp against the user's smart account, through MetaMask's own bridge
 * (test/harness/metamaskBridge.ts), on a real anvil with EntryPoint v0.6 and Alto on 127.0.0.1. The
 * dapp builds a user operation that drains the account and asks the keyring, from its own origin,
 * for every signature it will make outside eth_signUserOperation, hoping one of them is that
 * operation's signature (SimpleAccount v0.6 accepts the owner's EIP-191 signature of the 32-byte
 * userOpHash). Each one is refused by the snap, or refused by Alto and by the EntryPoint on chain;
 * the account's balance and nonce do not move. Controls: the same operation signed by
 * eth_signUserOperation passes the EntryPoint, and every other message still verifies the way a
 * dapp checks a SimpleAccount v0.6 signature today (recover the owner; the account has no
 * ERC-1271).
 */
import {
  ANVIL_ACCOUNTS,
  rpcResponse,
  startAccountAbstractionStack,
  type AccountAbstractionStack,
} from '@l2wallet/testkit';
import type { SnapKeyring } from '@metamask/eth-snap-keyring';
import type { KeyringAccount } from '@metamask/keyring-api';
import { installSnap, type Snap } from '@metamask/snaps-jest';
import { ethers } from 'ethers';
import { createPublicClient, http, recoverMessageAddress, type Hex } from 'viem';

import type { UserOperation } from '../../src/evm/userOperation';
import {
  answerDialog,
  createAccount,
  keyring,
  recoverPersonal,
  recoverTyped,
  resultOf,
  SCOPE,
  setChainConfig,
  SITE,
  type Account,
  type TypedData,
} from '../harness/snap';
import { draftUserOperation, ENTRY_POINT_ABI, waitForReceipt } from '../harness/entryPoint';
import { connectBridge } from '../harness/metamaskBridge';

const EVIL = 'https://evil.example';
const ATTACKER = '0x00000000000000000000000000000000000BAD00';
const CONTEXT = { chainId: '31337' };
const FUNDS = 10n ** 18n;
const DRAINED = (FUNDS * 9n) / 10n;
const entryPointInterface = new ethers.Interface(ENTRY_POINT_ABI);

let stack: AccountAbstractionStack;
let provider: ethers.JsonRpcProvider;
let snap: Snap;
let snapId: string;
let bridge: SnapKeyring;
let smart: KeyringAccount;
let eoa: KeyringAccount;
/**
 * The draining operation (signature still the dummy) and its v0.6 userOpHash from the EntryPoint.
 */
let drain: UserOperation;
let drainHash: Hex;
/** The smart account's owner key, exported by the user through the site's dialog. */
let ownerKey: Hex;

/** A request from the hostile dapp's origin, routed by MetaMask's bridge to the snap. */
async function fromDapp(
  account: KeyringAccount,
  method: string,
  params: unknown[],
  scope = SCOPE,
): Promise<unknown> {
  return bridge.submitRequest({
    origin: EVIL,
    account: account.id,
    method: method as never,
    params: params as never,
    scope,
  });
}

async function refusal(request: Promise<unknown>): Promise<{ code?: number; message: string }> {
  const error = await request.then(
    () => {
      throw new Error('the request was answered; it must be refused');
    },
    (failure: { code?: number; message: string }) => failure,
  );
  return { code: error.code, message: error.message };
}

/** What anvil says of EntryPoint.handleOps([op]) as a call: null when it would run. */
async function entryPointVerdict(op: UserOperation): Promise<string | null> {
  const data = entryPointInterface.encodeFunctionData('handleOps', [[op], ATTACKER]);
  const answer = await rpcResponse<Hex>(stack.anvilUrl, 'eth_call', [
    { from: ANVIL_ACCOUNTS[2].address, to: stack.contracts.entryPoint, data },
    'latest',
  ]);
  if (!answer.error) {
    return null;
  }
  const failure = entryPointInterface.parseError(answer.error.data as string);
  return failure ? `${failure.name}: ${failure.args.reason as string}` : answer.error.message;
}

async function accountState() {
  const entryPoint = new ethers.Contract(stack.contracts.entryPoint, ENTRY_POINT_ABI, provider);
  return {
    balance: await provider.getBalance(smart.address),
    nonce: (await entryPoint.getNonce(smart.address, 0)) as bigint,
    attacker: await provider.getBalance(ATTACKER),
  };
}

/** The signature of {v, r, s} (eth_signTransaction) as 65 bytes r || s || v. */
function joined(signature: { v: Hex; r: Hex; s: Hex }): Hex {
  const v = BigInt(signature.v);
  return ethers.Signature.from({
    r: signature.r,
    s: signature.s,
    v: v < 27n ? 27n + v : v,
  }).serialized as Hex;
}

beforeAll(async () => {
  stack = await startAccountAbstractionStack({ paymaster: false });
  provider = new ethers.JsonRpcProvider(stack.anvilUrl, undefined, {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  snap = await installSnap();
  ({ bridge, snapId } = connectBridge(snap));
  await setChainConfig(snap, { ...stack.chainConfig, paymasterUrl: null });
  // The smart account takes index 0, the EOA index 1 (the reinstall test below relies on it).
  smart = await bridge.createAccount(snapId as never, { type: 'eip155:erc4337' });
  eoa = await bridge.createAccount(snapId as never, { type: 'eip155:eoa' });

  // The user's smart account: deployed (by anyone, through the factory) and holding 1 ETH.
  const deployer = new ethers.Wallet(ANVIL_ACCOUNTS[0].privateKey, provider);
  const factory = new ethers.Contract(
    stack.contracts.factory,
    ['function createAccount(address owner, uint256 salt) returns (address)'],
    deployer,
  );
  const created = await factory.createAccount(smart.options.owner, 0);
  expect((await waitForReceipt(provider, created.hash)).status).toBe(1);
  expect(await provider.getCode(smart.address)).not.toBe('0x');
  await provider.send('anvil_setBalance', [smart.address, ethers.toQuantity(FUNDS)]);

  // The dapp builds the operation MetaMask would build for "send 0.9 ETH to ATTACKER".
  const base = await bridge.prepareUserOperation(
    smart.address,
    [{ to: ATTACKER, value: ethers.toQuantity(DRAINED), data: '0x' }],
    CONTEXT,
  );
  drain = await draftUserOperation(stack.alto.url, smart.address, base);
  expect(drain.paymasterAndData).toBe('0x');
  const entryPoint = new ethers.Contract(stack.contracts.entryPoint, ENTRY_POINT_ABI, provider);
  drainHash = (await entryPoint.getUserOpHash(drain)) as Hex;

  // The user exports the smart account's key on the site (the dialog warns what it is).
  const exported = snap.onKeyringRequest({
    origin: SITE,
    method: 'keyring_exportAccount',
    params: { id: smart.id },
  });
  const shown = await answerDialog(exported, true);
  expect(shown).toContain("This is the smart account's owner key");
  ownerKey = resultOf<{ privateKey: Hex }>(
    ((await exported) as unknown as { response: never }).response,
  ).privateKey;
  expect(ethers.computeAddress(ownerKey)).toBe(smart.options.owner);
}, 180_000);

afterAll(async () => {
  provider?.destroy();
  await stack?.stop();
});

describe('a hostile dapp asks for the hash of a draining user operation', () => {
  it('personal_sign of the 32-byte userOpHash on the smart account is refused, saying why and what to do instead', async () => {
    const before = await accountState();
    const refusals = [
      await refusal(fromDapp(smart, 'personal_sign', [drainHash, smart.address])),
      await refusal(
        fromDapp(smart, 'personal_sign', [
          drainHash.toUpperCase().replace('0X', '0x'),
          smart.address,
        ]),
      ),
      // The bridge's own personal_sign path (what MetaMask calls for a dapp's personal_sign).
      await refusal(bridge.signPersonalMessage(smart.address, drainHash)),
      // Any 32 bytes, not only this hash: the snap cannot tell a hash from a message.
      await refusal(bridge.signPersonalMessage(smart.address, `0x${'00'.repeat(32)}`)),
    ];
    for (const { code, message } of refusals) {
      expect(message).toContain('"request.params[0]" is exactly 32 bytes');
      expect(message).toMatch(/user operation/u);
      expect(message).toContain('eth_signTypedData_v4');
      expect(message).toContain('eth_signUserOperation');
      expect(code).toBe(-32602);
    }
    expect(await accountState()).toEqual(before);
  });

  it('no signature the keyring makes outside eth_signUserOperation validates it: Alto refuses each, the EntryPoint reverts AA24, nothing moves', async () => {
    const before = await accountState();
    const text = (value: string) => `0x${Buffer.from(value, 'utf8').toString('hex')}`;
    const bytes = ethers.getBytes(drainHash);
    const typed: TypedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        UserOperation: [{ name: 'userOpHash', type: 'bytes32' }],
      },
      primaryType: 'UserOperation',
      domain: { name: 'Drain', chainId: 31337, verifyingContract: stack.contracts.entryPoint },
      message: { userOpHash: drainHash },
    };
    const transaction = {
      type: '0x2',
      nonce: '0x0',
      from: eoa.address,
      to: smart.address,
      value: '0x0',
      data: drainHash,
      gasLimit: '0x5208',
      maxFeePerGas: '0x1',
      maxPriorityFeePerGas: '0x1',
      chainId: '0x7a69',
    };
    const signatures: [string, Hex][] = [
      [
        'smart account, personal_sign of the hash as text',
        (await fromDapp(smart, 'personal_sign', [text(drainHash), smart.address])) as Hex,
      ],
      [
        'smart account, personal_sign of the hash plus one byte',
        (await fromDapp(smart, 'personal_sign', [`${drainHash}00`, smart.address])) as Hex,
      ],
      [
        'smart account, personal_sign of the hash less one byte',
        (await fromDapp(smart, 'personal_sign', [
          ethers.hexlify(bytes.slice(0, 31)),
          smart.address,
        ])) as Hex,
      ],
      [
        'smart account, personal_sign of the EIP-191 preimage itself',
        (await fromDapp(smart, 'personal_sign', [
          ethers.hexlify(
            ethers.concat([ethers.toUtf8Bytes('\x19Ethereum Signed Message:\n32'), bytes]),
          ),
          smart.address,
        ])) as Hex,
      ],
      [
        'smart account, eth_signTypedData_v4 holding the hash',
        (await fromDapp(smart, 'eth_signTypedData_v4', [smart.address, typed])) as Hex,
      ],
      [
        'EOA, personal_sign of the 32-byte hash',
        (await fromDapp(eoa, 'personal_sign', [drainHash, eoa.address], '')) as Hex,
      ],
      [
        'EOA, eth_signTypedData_v4 holding the hash',
        (await fromDapp(eoa, 'eth_signTypedData_v4', [eoa.address, typed])) as Hex,
      ],
      [
        'EOA, eth_signTransaction carrying the hash',
        joined(
          (await fromDapp(eoa, 'eth_signTransaction', [transaction])) as {
            v: Hex;
            r: Hex;
            s: Hex;
          },
        ),
      ],
    ];
    expect(await recoverTyped(typed, signatures[4][1])).toBe(smart.options.owner);
    for (const [what, signature] of signatures) {
      const forged = { ...drain, signature };
      // Independently: the EIP-191 signature of the hash is not the owner's.
      expect([what, ethers.verifyMessage(bytes, signature)]).not.toEqual([
        what,
        smart.options.owner,
      ]);
      const sent = await rpcResponse(stack.alto.url, 'eth_sendUserOperation', [
        forged,
        stack.contracts.entryPoint,
      ]);
      expect([what, sent.result]).toEqual([what, undefined]);
      expect(sent.error?.message).toMatch(/signature/iu);
      expect([what, await entryPointVerdict(forged)]).toEqual([
        what,
        'FailedOp: AA24 signature error',
      ]);
    }
    expect(await accountState()).toEqual(before);
    expect(before.attacker).toBe(0n);
  });

  it("control: eth_signUserOperation's signature of the same operation is the owner's EIP-191 signature of its hash, and the EntryPoint would run it", async () => {
    const signature = (await bridge.signUserOperation(smart.address, drain, CONTEXT)) as Hex;
    // What personal_sign of the hash gave before the refusal: the same bytes (RFC 6979).
    expect(await new ethers.Wallet(ownerKey).signMessage(ethers.getBytes(drainHash))).toBe(
      signature,
    );
    expect(await recoverMessageAddress({ message: { raw: drainHash }, signature })).toBe(
      smart.options.owner,
    );
    expect(await entryPointVerdict({ ...drain, signature })).toBeNull();
  });

  it('the owner key cannot come back as an EOA: importing it is refused, through the site and the bridge', async () => {
    const accounts = bridge.listAccounts().length;
    const answer = await keyring(
      snap,
      'keyring_createAccount',
      { options: { type: 'eip155:eoa', privateKey: ownerKey } },
      SITE,
    );
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain(
      '"options.privateKey" is the owner key of the smart account',
    );
    expect(answer.error?.message).toContain(smart.address);
    expect(JSON.stringify(answer)).not.toContain(ownerKey.slice(2));
    const viaBridge = await refusal(
      bridge.createAccount(snapId as never, { type: 'eip155:eoa', privateKey: ownerKey }),
    );
    expect(viaBridge.message).toContain('is the owner key of the smart account');
    expect(bridge.listAccounts()).toHaveLength(accounts);
  });
});

describe('a dapp that verifies a smart account message signature today', () => {
  it('still recovers the owner of every other message, the owner SimpleAccount.owner() names on chain', async () => {
    const account = new ethers.Contract(
      smart.address,
      ['function owner() view returns (address)'],
      provider,
    );
    const owner = (await account.owner()) as string;
    expect(owner).toBe(smart.options.owner);
    const messages = [
      `0x${Buffer.from('Sign in to dapp.example\nNonce: 8c1f2e').toString('hex')}`,
      `0x${'ab'.repeat(31)}`,
      `0x${'ab'.repeat(33)}`,
      `0x${Buffer.from(drainHash).toString('hex')}`,
    ] as Hex[];
    for (const message of messages) {
      const signature = (await bridge.signPersonalMessage(smart.address, message)) as Hex;
      expect(await recoverPersonal(message, signature)).toBe(owner);
    }
  });

  it("an ERC-1271 check against the account's own address answers false, as it always did: SimpleAccount v0.6 has no isValidSignature", async () => {
    const client = createPublicClient({ transport: http(stack.anvilUrl) });
    const message = `0x${Buffer.from('Sign in to dapp.example').toString('hex')}` as Hex;
    const signature = (await bridge.signPersonalMessage(smart.address, message)) as Hex;
    expect(await recoverPersonal(message, signature)).toBe(smart.options.owner);
    const verified = await client.verifyMessage({
      address: smart.address as Hex,
      message: { raw: message },
      signature,
    });
    expect(verified).toBe(false);
  });
});

describe('a reinstalled snap (state gone, same secret): no EOA gets an old smart account owner key', () => {
  let again: Snap;
  let oldOwner: string;

  beforeAll(async () => {
    oldOwner = smart.options.owner as string;
    // The bridge belongs to the first install; this one is driven directly as MetaMask.
    (globalThis as unknown as Record<symbol, { keyring: unknown }>)[
      Symbol.for('snaps-simulation.snapKeyringBridge')
    ].keyring = null;
    again = await installSnap();
    await setChainConfig(again, { ...stack.chainConfig, paymasterUrl: null });
  });

  it('index 0 is again free: an EOA there has a key of its own, and a smart account whose owner was imported as an EOA is refused', async () => {
    const imported = await createAccount(again, { type: 'eip155:eoa', privateKey: ownerKey });
    expect(imported.address).toBe(oldOwner);
    // The next index is 0, whose owner key is the old smart account's: the imported EOA holds it.
    const refused = await keyring(again, 'keyring_createAccount', {
      options: { type: 'eip155:erc4337' },
    });
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toContain(`its owner key is the key of the account ${oldOwner}`);
    expect(refused.error?.message).toContain(`Remove ${oldOwner} first`);
    // An EOA at index 0 (the old smart account's index): not the owner key.
    const fresh = await createAccount(again, { type: 'eip155:eoa' });
    expect(fresh.options).toEqual({ index: 0 });
    expect(fresh.address).not.toBe(oldOwner);
    // With one key domain for both types, this EOA would hold the old owner key. EOA keys did
    // not move: index 1 gives the EOA the first install made there.
    const second = await createAccount(again, { type: 'eip155:eoa' });
    expect(second.address).toBe(eoa.address);
    const accounts = resultOf<Account[]>(await keyring(again, 'keyring_listAccounts'));
    expect(accounts.map((account) => account.address)).toEqual([
      oldOwner,
      fresh.address,
      eoa.address,
    ]);
  });
});
