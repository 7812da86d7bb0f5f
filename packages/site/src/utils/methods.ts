/** One card per snap method: its form fields, their defaults, and the typed client call. */
import {
  MAINNET_CHAIN_ID,
  TESTNET_CHAIN_ID,
  type AddErc20TokenParams,
  type CreateAccountParams,
  type DeclareContractParams,
  type DisplayPrivateKeyParams,
  type EstimateAccountDeployFeeParams,
  type EstimateFeeParams,
  type ExecuteTxnParams,
  type ExtractPublicKeyParams,
  type GetErc20TokenBalanceParams,
  type GetTransactionStatusParams,
  type GetTransactionsParams,
  type RecoverAccountsParams,
  type SignDeclareTransactionParams,
  type SignMessageParams,
  type SignTransactionParams,
  type StarknetSnapClient,
  type SwitchNetworkParams,
  type VerifySignedMessageParams,
} from '@l2wallet/client';
import { STRK_ADDRESS } from './config';
// Sierra of a tiny counter contract (a copy of
// packages/devnet/test/fixtures/counter.contract_class.json).
import COUNTER_CLASS from './counter.contract_class.json';

export type FieldKind = 'text' | 'number' | 'boolean' | 'json' | 'chain';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  optional?: boolean;
  hint?: string;
}

/** What the defaults are computed from. */
export interface DefaultsContext {
  address: string;
  nextIndex: number;
  chainId: string;
  lastSignature: string;
  lastTxHash: string;
}

export type FieldValues = Record<string, string>;

export interface MethodSpec {
  method: string;
  group: 'Accounts' | 'Network' | 'Signing' | 'Transactions' | 'Tokens';
  summary: string;
  fields: FieldSpec[];
  defaults(ctx: DefaultsContext): FieldValues;
  call(client: StarknetSnapClient, params: Record<string, unknown>): Promise<unknown>;
}

export const CHAINS = [
  { chainId: TESTNET_CHAIN_ID, name: 'Testnet (Sepolia)' },
  { chainId: MAINNET_CHAIN_ID, name: 'Mainnet' },
];

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A known network's chain id as its shortstring name (readable in the dialog), else the hex id. */
function domainChainId(chainId: string): string {
  if (chainId === MAINNET_CHAIN_ID) return 'SN_MAIN';
  if (chainId === TESTNET_CHAIN_ID) return 'SN_SEPOLIA';
  return chainId;
}

/**
 * Example SNIP-12 typed data for the network `chainId`: the snap signs typed data only when its
 * domain names the request's network (a signature cannot be replayed on the other one).
 */
export const exampleTypedData = (chainId: string) => ({
  types: {
    StarkNetDomain: [
      { name: 'name', type: 'felt' },
      { name: 'version', type: 'felt' },
      { name: 'chainId', type: 'felt' },
      { name: 'verifyingContract', type: 'felt' },
    ],
    Person: [
      { name: 'name', type: 'felt' },
      { name: 'wallet', type: 'felt' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'felt' },
    ],
  },
  primaryType: 'Mail',
  domain: {
    name: 'Starknet Mail',
    version: '1',
    chainId: domainChainId(chainId),
    verifyingContract: '0x1',
  },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
});

/** The counter class's Sierra class hash. */
export const COUNTER_CLASS_HASH =
  '0x7c1460695c1b8eed37d48dd5922b3ebe92823d1824b62795875b6f6be65381b';
/**
 * A stated compiled (CASM) class hash for the counter: the class ships without CASM, and the local
 * devnet stores the value as given (a public network checks it against its own compilation).
 */
export const COUNTER_COMPILED_CLASS_HASH =
  '0x4dc263bfa7272a718aa6f4f2ea9c4c4cc74d840f983a2f427554d7eb1553a19';

/** Fee bounds that cover a small transaction on the devnet (the snap requires resourceBounds). */
export const EXAMPLE_RESOURCE_BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x2e90edd000' },
  l2_gas: { max_amount: '0x4c4b40', max_price_per_unit: '0x1e8480' },
  l1_data_gas: { max_amount: '0x1388', max_price_per_unit: '0x30d40' },
};

/** 0.001 STRK to yourself: a harmless transfer that works once the account is funded. */
function transferCall(ctx: DefaultsContext) {
  return [
    {
      contractAddress: STRK_ADDRESS,
      entrypoint: 'transfer',
      calldata: [ctx.address || '0x1', '1000000000000000', '0'],
    },
  ];
}

export const METHODS: MethodSpec[] = [
  {
    method: 'l2_createAccount',
    group: 'Accounts',
    summary: 'Derive the account at an index; with deploy, also send its deploy transaction.',
    fields: [
      { name: 'addressIndex', kind: 'number', optional: true },
      { name: 'deploy', kind: 'boolean', optional: true },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      addressIndex: String(ctx.nextIndex),
      deploy: 'false',
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.createAccount(p as CreateAccountParams),
  },
  {
    method: 'l2_recoverAccounts',
    group: 'Accounts',
    summary: 'Scan derivation indexes and list the accounts found.',
    fields: [
      { name: 'startScanIndex', kind: 'number', optional: true },
      { name: 'maxScanned', kind: 'number', optional: true },
      { name: 'maxMissed', kind: 'number', optional: true },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      startScanIndex: '0',
      maxScanned: '5',
      maxMissed: '1',
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.recoverAccounts(p as RecoverAccountsParams),
  },
  {
    method: 'l2_extractPublicKey',
    group: 'Accounts',
    summary: "Read the account's public key.",
    fields: [
      { name: 'userAddress', kind: 'text' },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({ userAddress: ctx.address, chainId: ctx.chainId }),
    call: (client, p) => client.extractPublicKey(p as unknown as ExtractPublicKeyParams),
  },
  {
    method: 'l2_displayPrivateKey',
    group: 'Accounts',
    summary: 'Show the private key in the wallet pop-up (never returned to the page).',
    fields: [
      { name: 'userAddress', kind: 'text' },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({ userAddress: ctx.address, chainId: ctx.chainId }),
    call: (client, p) => client.displayPrivateKey(p as unknown as DisplayPrivateKeyParams),
  },
  {
    method: 'l2_estimateAccountDeployFee',
    group: 'Accounts',
    summary: 'Estimate the fee of deploying the account at an index.',
    fields: [
      { name: 'addressIndex', kind: 'number', optional: true },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      addressIndex: String(Math.max(0, ctx.nextIndex - 1)),
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.estimateAccountDeployFee(p as EstimateAccountDeployFeeParams),
  },
  {
    method: 'l2_getCurrentNetwork',
    group: 'Network',
    summary: 'The network the snap uses now.',
    fields: [],
    defaults: () => ({}),
    call: (client) => client.getCurrentNetwork(),
  },
  {
    method: 'l2_switchNetwork',
    group: 'Network',
    summary: 'Switch the snap to another network (asks the user).',
    fields: [{ name: 'chainId', kind: 'chain' }],
    defaults: (ctx) => ({
      chainId: ctx.chainId === MAINNET_CHAIN_ID ? TESTNET_CHAIN_ID : MAINNET_CHAIN_ID,
    }),
    call: (client, p) => client.switchNetwork(p as unknown as SwitchNetworkParams),
  },
  {
    method: 'l2_signMessage',
    group: 'Signing',
    summary: 'Sign typed data (SNIP-12) with an account.',
    fields: [
      { name: 'typedDataMessage', kind: 'json' },
      { name: 'signerAddress', kind: 'text' },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      typedDataMessage: json(exampleTypedData(ctx.chainId)),
      signerAddress: ctx.address,
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.signMessage(p as unknown as SignMessageParams),
  },
  {
    method: 'l2_verifySignedMessage',
    group: 'Signing',
    summary: 'Check a typed-data signature against an account (the last signature is pre-filled).',
    fields: [
      { name: 'typedDataMessage', kind: 'json' },
      { name: 'address', kind: 'text' },
      { name: 'signature', kind: 'text', hint: 'comma-separated hex values' },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      typedDataMessage: json(exampleTypedData(ctx.chainId)),
      address: ctx.address,
      signature: ctx.lastSignature,
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.verifySignedMessage(p as unknown as VerifySignedMessageParams),
  },
  {
    method: 'l2_signTransaction',
    group: 'Signing',
    summary: 'Sign calls without sending them.',
    fields: [
      { name: 'address', kind: 'text' },
      { name: 'chainId', kind: 'chain' },
      { name: 'transactions', kind: 'json' },
      { name: 'transactionsDetail', kind: 'json', optional: true },
    ],
    defaults: (ctx) => ({
      address: ctx.address,
      chainId: ctx.chainId,
      transactions: json(transferCall(ctx)),
      transactionsDetail: json({
        nonce: '0x0',
        version: '0x3',
        resourceBounds: EXAMPLE_RESOURCE_BOUNDS,
      }),
    }),
    call: (client, p) => client.signTransaction(p as unknown as SignTransactionParams),
  },
  {
    method: 'l2_signDeclareTransaction',
    group: 'Signing',
    summary: 'Sign a declare transaction without sending it.',
    fields: [
      { name: 'address', kind: 'text' },
      { name: 'senderAddress', kind: 'text' },
      { name: 'chainId', kind: 'chain' },
      { name: 'details', kind: 'json' },
    ],
    defaults: (ctx) => ({
      address: ctx.address,
      senderAddress: ctx.address,
      chainId: ctx.chainId,
      details: json({
        classHash: COUNTER_CLASS_HASH,
        compiledClassHash: COUNTER_COMPILED_CLASS_HASH,
        senderAddress: ctx.address,
        chainId: ctx.chainId,
        nonce: '0x0',
        version: '0x3',
        resourceBounds: EXAMPLE_RESOURCE_BOUNDS,
      }),
    }),
    call: (client, p) =>
      client.signDeclareTransaction(p as unknown as SignDeclareTransactionParams),
  },
  {
    method: 'l2_estimateFee',
    group: 'Transactions',
    summary:
      'Estimate the fee of a set of calls (includes deploy when the account is not deployed).',
    fields: [
      { name: 'address', kind: 'text' },
      { name: 'invocations', kind: 'json' },
      { name: 'details', kind: 'json', optional: true },
      { name: 'chainId', kind: 'chain' },
    ],
    defaults: (ctx) => ({
      address: ctx.address,
      invocations: json(transferCall(ctx)),
      details: '',
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.estimateFee(p as unknown as EstimateFeeParams),
  },
  {
    method: 'l2_executeTxn',
    group: 'Transactions',
    summary: 'Sign and send calls (default: transfer 0.001 STRK to yourself).',
    fields: [
      { name: 'address', kind: 'text' },
      { name: 'calls', kind: 'json' },
      { name: 'details', kind: 'json', optional: true },
      { name: 'chainId', kind: 'chain' },
    ],
    defaults: (ctx) => ({
      address: ctx.address,
      calls: json(transferCall(ctx)),
      details: '',
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.executeTxn(p as unknown as ExecuteTxnParams),
  },
  {
    method: 'l2_declareContract',
    group: 'Transactions',
    summary:
      'Declare a contract class (pre-filled: a small counter class; paste your compiled Sierra with its CASM or compiledClassHash).',
    fields: [
      { name: 'senderAddress', kind: 'text' },
      {
        name: 'contractPayload',
        kind: 'json',
        hint: '{ "contract": <sierra>, "casm": <casm> } or { "contract": <sierra>, "compiledClassHash": "0x…" }',
      },
      { name: 'invocationsDetails', kind: 'json', optional: true },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      senderAddress: ctx.address,
      contractPayload: json({
        contract: COUNTER_CLASS,
        compiledClassHash: COUNTER_COMPILED_CLASS_HASH,
      }),
      invocationsDetails: '',
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.declareContract(p as unknown as DeclareContractParams),
  },
  {
    method: 'l2_getTransactions',
    group: 'Transactions',
    summary: "List the account's transactions.",
    fields: [
      { name: 'senderAddress', kind: 'text' },
      { name: 'contractAddress', kind: 'text', optional: true },
      { name: 'pageSize', kind: 'number', optional: true, hint: '10, 25 or 50' },
      { name: 'txnsInLastNumOfDays', kind: 'number', optional: true },
      { name: 'withDeployTxn', kind: 'boolean', optional: true },
      { name: 'onlyFromState', kind: 'boolean', optional: true },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      senderAddress: ctx.address,
      contractAddress: '',
      pageSize: '10',
      txnsInLastNumOfDays: '5',
      withDeployTxn: 'true',
      onlyFromState: 'false',
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.getTransactions(p as unknown as GetTransactionsParams),
  },
  {
    method: 'l2_getTransactionStatus',
    group: 'Transactions',
    summary: 'Read the status of a transaction (the last one sent is pre-filled).',
    fields: [
      { name: 'transactionHash', kind: 'text' },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({ transactionHash: ctx.lastTxHash, chainId: ctx.chainId }),
    call: (client, p) => client.getTransactionStatus(p as unknown as GetTransactionStatusParams),
  },
  {
    method: 'l2_addErc20Token',
    group: 'Tokens',
    summary: "Add an ERC-20 token to the account's watch list.",
    fields: [
      { name: 'address', kind: 'text' },
      { name: 'chainId', kind: 'chain' },
      { name: 'tokenAddress', kind: 'text' },
      { name: 'tokenName', kind: 'text' },
      { name: 'tokenSymbol', kind: 'text' },
      { name: 'tokenDecimals', kind: 'number', optional: true },
    ],
    defaults: (ctx) => ({
      address: ctx.address,
      chainId: ctx.chainId,
      tokenAddress: STRK_ADDRESS,
      tokenName: 'Starknet Token',
      tokenSymbol: 'STRK',
      tokenDecimals: '18',
    }),
    call: (client, p) => client.addErc20Token(p as unknown as AddErc20TokenParams),
  },
  {
    method: 'l2_getErc20TokenBalance',
    group: 'Tokens',
    summary: 'Read an ERC-20 balance (pending and latest).',
    fields: [
      { name: 'tokenAddress', kind: 'text' },
      { name: 'userAddress', kind: 'text' },
      { name: 'chainId', kind: 'chain', optional: true },
    ],
    defaults: (ctx) => ({
      tokenAddress: STRK_ADDRESS,
      userAddress: ctx.address,
      chainId: ctx.chainId,
    }),
    call: (client, p) => client.getErc20TokenBalance(p as unknown as GetErc20TokenBalanceParams),
  },
];

/** New defaults for a form: every field takes its new default except those the user edited. */
export function refillDefaults(
  current: FieldValues,
  defaults: FieldValues,
  edited: ReadonlySet<string>,
): FieldValues {
  const next: FieldValues = { ...defaults };
  for (const name of edited) if (name in current) next[name] = current[name];
  return next;
}

/** Turns form strings into params; empty optional fields are left out. Throws on bad input. */
export function buildParams(
  spec: MethodSpec,
  values: FieldValues,
): Record<string, unknown> | undefined {
  if (spec.fields.length === 0) return undefined;
  const params: Record<string, unknown> = {};
  for (const field of spec.fields) {
    const raw = (values[field.name] ?? '').trim();
    if (raw === '') {
      if (field.optional) continue;
      throw new Error(`${field.name} is required`);
    }
    switch (field.kind) {
      case 'number': {
        const value = Number(raw);
        if (!Number.isInteger(value)) throw new Error(`${field.name} must be an integer`);
        params[field.name] = value;
        break;
      }
      case 'boolean':
        params[field.name] = raw === 'true';
        break;
      case 'json':
        try {
          params[field.name] = JSON.parse(raw) as unknown;
        } catch {
          throw new Error(`${field.name} is not valid JSON`);
        }
        break;
      default:
        params[field.name] = raw;
    }
  }
  return params;
}
