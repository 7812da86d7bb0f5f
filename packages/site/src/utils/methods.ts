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
  type SwitchNetworkParams,
  type VerifySignedMessageParams,
} from '@l2wallet/client';
import {
  COUNTER_CLASS,
  COUNTER_CLASS_HASH,
  COUNTER_COMPILED_CLASS_HASH,
  EXAMPLE_RESOURCE_BOUNDS,
  exampleTypedData,
  transferCall,
} from './examples';
import { STRK_ADDRESS } from './config';
import type { MethodSpec } from './methodForm';

export const CHAINS = [
  { chainId: TESTNET_CHAIN_ID, name: 'Testnet (Sepolia)' },
  { chainId: MAINNET_CHAIN_ID, name: 'Mainnet' },
];

const json = (value: unknown) => JSON.stringify(value, null, 2);

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
