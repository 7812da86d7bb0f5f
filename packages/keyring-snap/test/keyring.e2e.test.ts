/**
 * The keyring snap driven by MetaMask's own bridge: @metamask/eth-snap-keyring's SnapKeyring
 * (18.0.2, the newest that runs on Node 20), with a messenger whose `SnapController:handleRequest`
 * calls the snap installed in snaps-simulation, and whose keyring events (snap_manageAccounts)
 * reach the bridge's handleKeyringSnapMessage through the simulation's getSnapKeyring hook
 * (patches/, test/harness/environment.cjs). Every request below has the shape the bridge itself
 * builds. The chain is a real anvil with EntryPoint v0.6, Alto and the ERC-7677 paymaster service
 * on 127.0.0.1; ethers and viem recover every signature.
 */
import {
  rpcResponse,
  startAccountAbstractionStack,
  type AccountAbstractionDeployment,
  type AccountAbstractionStack,
  type AltoService,
  type PaymasterService,
} from '@l2wallet/testkit';
import type { SnapKeyring } from '@metamask/eth-snap-keyring';
import type { KeyringAccount } from '@metamask/keyring-api';
import { installSnap, type Snap } from '@metamask/snaps-jest';
import { ethers } from 'ethers';
import path from 'node:path';
import { recoverMessageAddress, type Hex } from 'viem';

import type { UserOperation } from '../src/evm/userOperation';
import { recoverPersonal, recoverTyped, setChainConfig, type TypedData } from './harness/snap';
import {
  draftUserOperation,
  ENTRY_POINT_ABI,
  waitForReceipt,
  waitForUserOperationReceipt,
} from './harness/entryPoint';
import { connectBridge, type Added, type Handled } from './harness/metamaskBridge';

const RECIPIENT = '0x000000000000000000000000000000000000bEEF';
const CONTEXT = { chainId: '31337' };

// The transaction library the bridge itself signs with (its own dependency).
const bridgeDir = path.dirname(require.resolve('@metamask/eth-snap-keyring'));
const { TransactionFactory } = require(
  require.resolve('@ethereumjs/tx', { paths: [bridgeDir] }),
) as {
  TransactionFactory: { fromTxData(data: Record<string, unknown>, options: object): unknown };
};
const { Common } = require(require.resolve('@ethereumjs/common', { paths: [bridgeDir] })) as {
  Common: { custom(params: { chainId: number }): unknown };
};

let stack: AccountAbstractionStack;
let alto: AltoService;
let paymasterService: PaymasterService;
let contracts: AccountAbstractionDeployment;
let provider: ethers.JsonRpcProvider;
let snap: Snap;
let snapId: string;
let bridge: SnapKeyring;
let added: Added[];
let handled: Handled[];

async function bundler(method: string, params: unknown[]) {
  return rpcResponse(alto.url, method, params);
}

async function setChain(paymasterUrl: string | null) {
  await setChainConfig(snap, { ...stack.chainConfig, paymasterUrl });
}

/**
 * What MetaMask's UserOperationController does with a snap account, every snap call through the
 * bridge: prepare, fees from the bundler, patch, sign, then send to the bundler. `between` runs
 * after prepare (a test funds the account there).
 */
async function userOperationThroughBridge(
  account: KeyringAccount,
  intent: { to: string; value: Hex; data: Hex },
  between: () => Promise<void> = async () => undefined,
) {
  const base = await bridge.prepareUserOperation(account.address, [intent], CONTEXT);
  await between();
  const draft = await draftUserOperation(alto.url, account.address, base);
  const patch = await bridge.patchUserOperation(account.address, draft, CONTEXT);
  const patched = { ...draft, ...patch } as UserOperation;
  const signature = (await bridge.signUserOperation(account.address, patched, CONTEXT)) as Hex;
  const op = { ...patched, signature };
  // The signature recovers to the owner over the EntryPoint's own getUserOpHash.
  const entryPoint = new ethers.Contract(contracts.entryPoint, ENTRY_POINT_ABI, provider);
  const hash = (await entryPoint.getUserOpHash(op)) as Hex;
  const owner = account.options.owner as string;
  expect(ethers.verifyMessage(ethers.getBytes(hash), signature)).toBe(owner);
  expect(await recoverMessageAddress({ message: { raw: hash }, signature })).toBe(owner);
  const sent = await bundler('eth_sendUserOperation', [op, contracts.entryPoint]);
  if (sent.error) {
    throw new Error(`eth_sendUserOperation: ${sent.error.message}`);
  }
  return { base, op, receipt: await waitForUserOperationReceipt(alto.url, sent.result) };
}

beforeAll(async () => {
  stack = await startAccountAbstractionStack();
  ({ contracts, alto } = stack);
  paymasterService = stack.paymaster as PaymasterService;
  provider = new ethers.JsonRpcProvider(stack.anvilUrl, undefined, {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  snap = await installSnap();
  ({ bridge, snapId, added, handled } = connectBridge(snap));
  await setChain(null);
});

afterAll(async () => {
  provider?.destroy();
  await stack?.stop();
});

describe('accounts through the bridge', () => {
  it('creates an EOA and a smart account: the bridge receives AccountCreated and keeps them', async () => {
    const eoa = await bridge.createAccount(
      snapId as never,
      { type: 'eip155:eoa' },
      { setSelectedAccount: false },
    );
    const smart = await bridge.createAccount(snapId as never, { type: 'eip155:erc4337' });
    expect(added).toEqual([
      {
        address: eoa.address.toLowerCase(),
        snapId,
        name: 'EVM account',
        // MetaMask's internal options come back through the snap's event (correlation id).
        options: expect.objectContaining({ setSelectedAccount: false }),
      },
      expect.objectContaining({ address: smart.address.toLowerCase(), name: 'Smart account' }),
    ]);
    expect(bridge.listAccounts().map((account) => account.id)).toEqual([eoa.id, smart.id]);
    expect(bridge.getAccountByAddress(smart.address)).toMatchObject({
      type: 'eip155:erc4337',
      scopes: ['eip155:31337'],
      methods: [
        'personal_sign',
        'eth_signTypedData_v4',
        'eth_prepareUserOperation',
        'eth_patchUserOperation',
        'eth_signUserOperation',
      ],
      metadata: { snap: { id: snapId, name: 'EVM Accounts' } },
    });
    // The factory on the node agrees with the snap's own CREATE2 address.
    const factory = new ethers.Contract(
      contracts.factory,
      ['function getAddress(address owner, uint256 salt) view returns (address)'],
      provider,
    );
    expect(await factory['getAddress(address,uint256)'](smart.options.owner, 0)).toBe(
      smart.address,
    );
  });

  it('resolves the account of a dapp request and takes the selected accounts', async () => {
    const [eoa, smart] = bridge.listAccounts();
    const message = '0x68656c6c6f';
    expect(
      await bridge.resolveAccountAddress(snapId as never, 'eip155:31337', {
        jsonrpc: '2.0',
        id: 1,
        method: 'personal_sign',
        params: [message, eoa.address],
      }),
    ).toEqual({ address: `eip155:31337:${ethers.getAddress(eoa.address)}` });
    // A message that is itself one of our addresses does not make personal_sign ours.
    expect(
      await bridge.resolveAccountAddress(snapId as never, 'eip155:31337', {
        jsonrpc: '2.0',
        id: 2,
        method: 'personal_sign',
        params: [eoa.address, RECIPIENT],
      }),
    ).toBeNull();
    // A smart account exists on its own chain only.
    expect(
      await bridge.resolveAccountAddress(snapId as never, 'eip155:1', {
        jsonrpc: '2.0',
        id: 3,
        method: 'eth_signTypedData_v4',
        params: [smart.address, '{}'],
      }),
    ).toBeNull();
    await bridge.setSelectedAccounts([eoa.id, smart.id]);
    expect(handled.at(-1)).toEqual({
      method: 'keyring_setSelectedAccounts',
      params: { accounts: [eoa.id, smart.id] },
    });
  });
});

describe('signing through the bridge', () => {
  it('personal_sign [data, address]', async () => {
    for (const account of bridge.listAccounts()) {
      const message =
        `0x${Buffer.from(`through the bridge ${account.type}`).toString('hex')}` as Hex;
      const signature = (await bridge.signPersonalMessage(account.address, message)) as Hex;
      const signer =
        account.type === 'eip155:eoa' ? account.address : (account.options.owner as string);
      expect((await recoverPersonal(message, signature)).toLowerCase()).toBe(signer.toLowerCase());
    }
    expect(handled.filter((entry) => entry.method === 'keyring_submitRequest').at(-1)).toEqual({
      method: 'keyring_submitRequest',
      params: expect.objectContaining({
        scope: '',
        origin: 'metamask',
        request: { method: 'personal_sign', params: [expect.any(String), expect.any(String)] },
      }),
    });
  });

  it('eth_signTypedData_v4 [address, data], with domain.chainId as the scope', async () => {
    const [eoa] = bridge.listAccounts();
    const data: TypedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Mail: [
          { name: 'to', type: 'address' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      domain: { name: 'Bridge', chainId: 31337 },
      message: { to: RECIPIENT, contents: 'hello' },
    };
    const signature = (await bridge.signTypedData(eoa.address, data as never, {
      version: 'V4' as never,
    })) as Hex;
    expect((await recoverTyped(data, signature)).toLowerCase()).toBe(eoa.address);
    const request = handled.at(-1)?.params as { scope: string };
    expect(request.scope).toBe('eip155:31337');
    // A hex domain.chainId becomes a hex scope reference (eip155:0x7a69), read as the same chain.
    const hexChain = { ...data, domain: { name: 'Bridge', chainId: '0x7a69' } };
    const hexSignature = (await bridge.signTypedData(eoa.address, hexChain as never, {
      version: 'V4' as never,
    })) as Hex;
    expect((handled.at(-1)?.params as { scope: string }).scope).toBe('eip155:0x7a69');
    expect((await recoverTyped(hexChain, hexSignature)).toLowerCase()).toBe(eoa.address);
  });

  it.each([
    ['EIP-1559', 2, { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }],
    ['EIP-2930', 1, { gasPrice: 2_000_000_000n, accessList: [] }],
    ['legacy (EIP-155)', 0, { gasPrice: 2_000_000_000n }],
  ])(
    'eth_signTransaction of a %s transaction as the bridge serializes it: mined from the EOA',
    async (_kind, type, fees) => {
      const [eoa] = bridge.listAccounts();
      await provider.send('anvil_setBalance', [eoa.address, ethers.toQuantity(10n ** 18n)]);
      const before = await provider.getBalance(RECIPIENT);
      const nonce = await provider.getTransactionCount(eoa.address);
      const tx = TransactionFactory.fromTxData(
        {
          type,
          nonce: BigInt(nonce),
          to: RECIPIENT,
          value: 4321n,
          gasLimit: 30000n,
          data: '0x',
          ...fees,
        },
        { common: Common.custom({ chainId: 31337 }) as never },
      );
      const signedTx = (await bridge.signTransaction(eoa.address, tx as never)) as unknown as {
        serialize(): Uint8Array;
      };
      const serialized = ethers.hexlify(signedTx.serialize());
      const parsed = ethers.Transaction.from(serialized);
      expect(parsed.from?.toLowerCase()).toBe(eoa.address);
      expect(parsed.chainId).toBe(31337n);
      const sentShape = (
        handled.at(-1)?.params as { request: { params: [Record<string, unknown>] } }
      ).request.params[0];
      expect(sentShape).toMatchObject({
        type: `0x${type}`,
        chainId: '0x7a69',
        from: eoa.address,
        nonce: ethers.toQuantity(nonce),
        value: '0x10e1',
      });
      const hash = await provider.send('eth_sendRawTransaction', [serialized]);
      const receipt = await waitForReceipt(provider, hash);
      expect(receipt.status).toBe(1);
      expect(await provider.getBalance(RECIPIENT)).toBe(before + 4321n);
    },
  );
});

describe('user operations through the bridge (prepare -> patch -> sign -> Alto -> mined)', () => {
  it('a zero-balance account prepares, is funded after prepare, and its first operation deploys it and pays', async () => {
    const account = await bridge.createAccount(snapId as never, { type: 'eip155:erc4337' });
    expect(await provider.getBalance(account.address)).toBe(0n);
    const before = await provider.getBalance(RECIPIENT);
    const { base, op, receipt } = await userOperationThroughBridge(
      account,
      { to: RECIPIENT, value: ethers.toQuantity(10n ** 15n) as Hex, data: '0x' },
      async () => {
        await provider.send('anvil_setBalance', [account.address, ethers.toQuantity(10n ** 17n)]);
      },
    );
    expect(base.initCode.toLowerCase().startsWith(contracts.factory)).toBe(true);
    expect(op.paymasterAndData).toBe('0x');
    expect(receipt.success).toBe(true);
    expect(await provider.getCode(account.address)).not.toBe('0x');
    expect(await provider.getBalance(RECIPIENT)).toBe(before + 10n ** 15n);
    const submitted = handled
      .filter((entry) => entry.method === 'keyring_submitRequest')
      .slice(-3)
      .map((entry) => (entry.params as { request: { method: string; params: unknown[] } }).request);
    expect(submitted.map((request) => [request.method, request.params.length])).toEqual([
      ['eth_prepareUserOperation', 1],
      ['eth_patchUserOperation', 1],
      ['eth_signUserOperation', 1],
    ]);
  });

  it('a zero-balance account, sponsored by the ERC-7677 paymaster, deploys with no funds at all', async () => {
    await setChain(paymasterService.url);
    try {
      const account = await bridge.createAccount(snapId as never, { type: 'eip155:erc4337' });
      const entryPoint = new ethers.Contract(contracts.entryPoint, ENTRY_POINT_ABI, provider);
      const deposit = (await entryPoint.balanceOf(contracts.paymaster)) as bigint;
      const requestsBefore = paymasterService.requests().length;
      const { base, op, receipt } = await userOperationThroughBridge(account, {
        to: RECIPIENT,
        value: '0x0',
        data: '0x',
      });
      // The estimate carried the paymaster's stub: asked for before the bundler estimated.
      expect(paymasterService.requests().slice(requestsBefore)).toEqual([
        'pm_getPaymasterStubData',
        'pm_getPaymasterData',
      ]);
      expect(base.dummyPaymasterAndData.startsWith(contracts.paymaster)).toBe(true);
      expect(op.paymasterAndData.startsWith(contracts.paymaster)).toBe(true);
      expect(receipt.success).toBe(true);
      expect(await provider.getCode(account.address)).not.toBe('0x');
      expect((await entryPoint.getNonce(account.address, 0)) as bigint).toBe(1n);
      expect(await provider.getBalance(account.address)).toBe(0n);
      expect((await entryPoint.balanceOf(contracts.paymaster)) as bigint).toBeLessThan(deposit);
    } finally {
      await setChain(null);
    }
  });
});

describe('removing an account through the bridge', () => {
  it('keyring_deleteAccount removes it from the snap; the bridge forgets it', async () => {
    const account = await bridge.createAccount(snapId as never, { type: 'eip155:eoa' });
    await bridge.removeAccount(account.address);
    expect(bridge.getAccountByAddress(account.address)).toBeUndefined();
    const { response } = (await snap.onKeyringRequest({
      origin: 'metamask',
      method: 'keyring_listAccounts',
    })) as unknown as { response: { result: { id: string }[] } };
    expect(response.result.map((entry) => entry.id)).not.toContain(account.id);
    expect(handled.some((entry) => entry.method === 'keyring_deleteAccount' && !entry.error)).toBe(
      true,
    );
  });
});
