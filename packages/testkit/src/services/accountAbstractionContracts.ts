/**
 * The ERC-4337 v0.6 contracts of @account-abstraction/contracts 0.6.0 (their npm artifacts),
 * deployed on an anvil: EntryPoint, SimpleAccountFactory and VerifyingPaymaster.
 */
import type { Abi, Hex } from 'viem';

import { ANVIL_ACCOUNTS } from '../constants';
import { rpc } from '../jsonRpc';
import { privateKeyToAccount, viem } from './lazyViem';

type Address = `0x${string}`;

/** A contract's abi and creation bytecode, from the package's artifacts. */
export function artifact(name: string): { abi: Abi; bytecode: Hex } {
  return require(`@account-abstraction/contracts/artifacts/${name}.json`);
}

export interface AccountAbstractionDeployment {
  chainId: number;
  /** Lower-case addresses of EntryPoint v0.6, SimpleAccountFactory and VerifyingPaymaster. */
  entryPoint: Address;
  factory: Address;
  paymaster: Address;
  /** The VerifyingPaymaster's signer (a public anvil dev key). */
  paymasterSignerKey: Hex;
}

/**
 * Deploys EntryPoint, SimpleAccountFactory and VerifyingPaymaster (its verifying signer is
 * `paymasterSignerKey`, default anvil's third dev account) from anvil's first dev account, and
 * deposits `paymasterDeposit` wei (default 10 ETH) for the paymaster at the EntryPoint.
 */
export async function deployAccountAbstraction(
  anvilUrl: string,
  options: { deployerKey?: Hex; paymasterSignerKey?: Hex; paymasterDeposit?: bigint } = {},
): Promise<AccountAbstractionDeployment> {
  const paymasterSignerKey = options.paymasterSignerKey ?? ANVIL_ACCOUNTS[2].privateKey;
  const deployer = privateKeyToAccount(options.deployerKey ?? ANVIL_ACCOUNTS[0].privateKey);
  const signer = privateKeyToAccount(paymasterSignerKey);
  const chainId = Number(await rpc(anvilUrl, 'eth_chainId'));
  const { createPublicClient, createWalletClient, defineChain, http: viemHttp } = viem();
  const chain = defineChain({
    id: chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvilUrl] } },
  });
  const transport = viemHttp(anvilUrl);
  const wallet = createWalletClient({ account: deployer, chain, transport });
  const client = createPublicClient({ chain, transport });
  async function deploy(name: string, args: unknown[]): Promise<Address> {
    const { abi, bytecode } = artifact(name);
    const hash = await wallet.deployContract({ abi, bytecode, args });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== 'success' || !receipt.contractAddress) {
      throw new Error(`deploying ${name} failed`);
    }
    return receipt.contractAddress;
  }
  const entryPoint = await deploy('EntryPoint', []);
  const factory = await deploy('SimpleAccountFactory', [entryPoint]);
  const paymaster = await deploy('VerifyingPaymaster', [entryPoint, signer.address]);
  const depositHash = await wallet.writeContract({
    address: paymaster,
    abi: artifact('VerifyingPaymaster').abi,
    functionName: 'deposit',
    value: options.paymasterDeposit ?? 10n ** 19n,
  });
  await client.waitForTransactionReceipt({ hash: depositHash, pollingInterval: 50 });
  return {
    chainId,
    entryPoint: entryPoint.toLowerCase() as Address,
    factory: factory.toLowerCase() as Address,
    paymaster: paymaster.toLowerCase() as Address,
    paymasterSignerKey,
  };
}
