import {
  keccak256,
  serializeTransaction,
  toHex,
  type AccessList,
  type TransactionSerializable,
} from 'viem';
import { sign } from 'viem/accounts';

import { show } from '../evm/chainConfig';
import { invalidParams } from '../errors';
import {
  asAddress,
  asArray,
  asBytes,
  asQuantity,
  asRecord,
  onlyKeys,
  optionalQuantity,
  sameAddress,
} from '../evm/validation';
import { PARAMS, type RequestMethod } from './types';

const FIELD = `${PARAMS}[0]`;

/** `v`, `r`, `s` are tolerated (unsigned placeholders some callers send) and ignored. */
const KNOWN_FIELDS = [
  'type',
  'nonce',
  'to',
  'from',
  'value',
  'data',
  'input',
  'gasLimit',
  'gas',
  'gasPrice',
  'maxPriorityFeePerGas',
  'maxFeePerGas',
  'accessList',
  'chainId',
  'v',
  'r',
  's',
] as const;

const TYPES: Record<string, 'legacy' | 'eip2930' | 'eip1559'> = {
  '0x0': 'legacy',
  '0x1': 'eip2930',
  '0x2': 'eip1559',
};

function parseAccessList(value: unknown): AccessList {
  return asArray(value, `${FIELD}.accessList`).map((item, index) => {
    const field = `${FIELD}.accessList[${index}]`;
    const entry = asRecord(item, field);
    onlyKeys(entry, ['address', 'storageKeys'], field);
    return {
      address: asAddress(entry.address, `${field}.address`),
      storageKeys: asArray(entry.storageKeys, `${field}.storageKeys`).map((key, keyIndex) => {
        const bytes = asBytes(key, `${field}.storageKeys[${keyIndex}]`);
        if (bytes.length !== 66) {
          throw invalidParams(`${field}.storageKeys[${keyIndex}]`, 'must be 32 bytes');
        }
        return bytes;
      }),
    };
  });
}

function forbid(tx: Record<string, unknown>, fields: string[], kind: string) {
  for (const field of fields) {
    if (tx[field] !== undefined && tx[field] !== null) {
      throw invalidParams(`${FIELD}.${field}`, `is not part of a ${kind} transaction`);
    }
  }
}

function needed<T>(value: T | undefined, field: string, kind: string): T {
  if (value === undefined) {
    throw invalidParams(`${FIELD}.${field}`, `is required for a ${kind} transaction`);
  }
  return value;
}

/**
 * Parses the transaction object of docs/interface/keyring.md#transaction into viem's serializable
 * form.
 */
export function parseTransaction(raw: unknown, chainId: number, account: string) {
  const tx = asRecord(raw, FIELD);
  onlyKeys(tx, KNOWN_FIELDS, FIELD);
  if (tx.type === undefined) {
    throw invalidParams(`${FIELD}.type`, 'is required: "0x0" (legacy), "0x1" or "0x2"');
  }
  const typeNumber = asQuantity(tx.type, `${FIELD}.type`, 8);
  const kind = TYPES[toHex(typeNumber)];
  if (!kind) {
    throw invalidParams(`${FIELD}.type`, `must be "0x0", "0x1" or "0x2", got ${show(tx.type)}`);
  }
  if (tx.chainId === undefined || tx.chainId === null) {
    throw invalidParams(`${FIELD}.chainId`, `is required (the request's chain is ${chainId})`);
  }
  const txChain = asQuantity(tx.chainId, `${FIELD}.chainId`, 64);
  if (txChain !== BigInt(chainId)) {
    throw invalidParams(
      `${FIELD}.chainId`,
      `must be the request's chain ${chainId}, got ${show(tx.chainId)}`,
    );
  }
  if (tx.from !== undefined && tx.from !== null) {
    const from = asAddress(tx.from, `${FIELD}.from`);
    if (!sameAddress(from, account)) {
      throw invalidParams(`${FIELD}.from`, `must be the account's address ${account}`);
    }
  }
  if (tx.nonce === undefined) {
    throw invalidParams(`${FIELD}.nonce`, 'is required');
  }
  const nonce = asQuantity(tx.nonce, `${FIELD}.nonce`, 64);
  // The signed encoding carries the nonce as a JS number: above 2^53 - 1 it would silently
  // become another nonce.
  if (nonce > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalidParams(`${FIELD}.nonce`, `must be at most 2^53 - 1, got ${show(tx.nonce)}`);
  }
  const gasField = tx.gasLimit !== undefined ? 'gasLimit' : 'gas';
  if (tx[gasField] === undefined) {
    throw invalidParams(`${FIELD}.gasLimit`, 'is required');
  }
  const gas = asQuantity(tx[gasField], `${FIELD}.${gasField}`, 64);
  const to = tx.to === undefined || tx.to === null ? null : asAddress(tx.to, `${FIELD}.to`);
  const value = optionalQuantity(tx.value, `${FIELD}.value`) ?? 0n;
  const dataField = tx.data === undefined && tx.input !== undefined ? 'input' : 'data';
  const data =
    tx[dataField] === undefined || tx[dataField] === null
      ? '0x'
      : asBytes(tx[dataField], `${FIELD}.${dataField}`);
  const common = { chainId, nonce: Number(nonce), gas, to, value, data };
  const gasPrice = optionalQuantity(tx.gasPrice, `${FIELD}.gasPrice`);
  const maxFeePerGas = optionalQuantity(tx.maxFeePerGas, `${FIELD}.maxFeePerGas`);
  const maxPriorityFeePerGas = optionalQuantity(
    tx.maxPriorityFeePerGas,
    `${FIELD}.maxPriorityFeePerGas`,
  );
  const accessList =
    tx.accessList === undefined || tx.accessList === null ? [] : parseAccessList(tx.accessList);

  let serializable: TransactionSerializable;
  if (kind === 'legacy') {
    forbid(tx, ['maxFeePerGas', 'maxPriorityFeePerGas', 'accessList'], 'legacy (type 0x0)');
    serializable = { ...common, type: 'legacy', gasPrice: needed(gasPrice, 'gasPrice', 'legacy') };
  } else if (kind === 'eip2930') {
    forbid(tx, ['maxFeePerGas', 'maxPriorityFeePerGas'], 'EIP-2930 (type 0x1)');
    serializable = {
      ...common,
      type: 'eip2930',
      gasPrice: needed(gasPrice, 'gasPrice', 'EIP-2930'),
      accessList,
    };
  } else {
    forbid(tx, ['gasPrice'], 'EIP-1559 (type 0x2)');
    const maxFee = needed(maxFeePerGas, 'maxFeePerGas', 'EIP-1559');
    const tip = needed(maxPriorityFeePerGas, 'maxPriorityFeePerGas', 'EIP-1559');
    if (tip > maxFee) {
      throw invalidParams(`${FIELD}.maxPriorityFeePerGas`, 'must not exceed maxFeePerGas');
    }
    serializable = {
      ...common,
      type: 'eip1559',
      maxFeePerGas: maxFee,
      maxPriorityFeePerGas: tip,
      accessList,
    };
  }
  return serializable;
}

/**
 * eth_signTransaction [transaction]: returns {v, r, s}. Legacy v follows EIP-155
 * (chainId * 2 + 35 + yParity); typed transactions return v = yParity (0 or 1).
 */
export const signTransaction: RequestMethod = {
  name: 'eth_signTransaction',
  accountTypes: ['eip155:eoa'],
  handle: async ({ stored, params, chainId, signingKey }) => {
    if (chainId === null) {
      throw invalidParams('scope', 'is required for eth_signTransaction: "eip155:<chainId>"');
    }
    const list = asArray(params, PARAMS, 1);
    const transaction = parseTransaction(list[0], chainId, stored.account.address);
    const hash = keccak256(serializeTransaction(transaction));
    const signature = await sign({ hash, privateKey: await signingKey() });
    const yParity = BigInt(signature.yParity ?? 0);
    const v = transaction.type === 'legacy' ? BigInt(chainId) * 2n + 35n + yParity : yParity;
    return { v: toHex(v), r: signature.r, s: signature.s };
  },
};
