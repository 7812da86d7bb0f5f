import type { Json } from '@metamask/snaps-sdk';
import { hashTypedData, type TypedDataDefinition } from 'viem';
import { sign } from 'viem/accounts';

import { show } from '../evm/chainConfig';
import { invalidParams } from '../errors';
import {
  asAddress,
  asArray,
  asQuantity,
  asRecord,
  asString,
  sameAddress,
  type Hex,
} from '../evm/validation';
import { PARAMS, type RequestMethod } from './types';

const FIELD = `${PARAMS}[1]`;

function parseTypedData(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'string') {
    try {
      return asRecord(JSON.parse(raw), FIELD);
    } catch {
      throw invalidParams(FIELD, 'is a string that is not JSON typed data');
    }
  }
  return asRecord(raw, FIELD);
}

/**
 * Checks the shape named in docs/interface/keyring.md#typed-data; viem then checks each value
 * against its type.
 */
function checkTypedData(data: Record<string, unknown>, chainId: number | null) {
  const types = asRecord(data.types, `${FIELD}.types`);
  for (const [name, members] of Object.entries(types)) {
    asArray(members, `${FIELD}.types.${name}`).forEach((member, index) => {
      const field = `${FIELD}.types.${name}[${index}]`;
      const entry = asRecord(member, field);
      asString(entry.name, `${field}.name`);
      asString(entry.type, `${field}.type`);
    });
  }
  // Without types.EIP712Domain the domain's types come from the domain's own fields, as viem's
  // and ethers' verifiers derive them, so what they recover is what was signed.
  const primaryType = asString(data.primaryType, `${FIELD}.primaryType`);
  if (primaryType !== 'EIP712Domain' && !types[primaryType]) {
    throw invalidParams(`${FIELD}.primaryType`, `names no type in types, got ${show(primaryType)}`);
  }
  const domain = asRecord(data.domain, `${FIELD}.domain`);
  asRecord(data.message, `${FIELD}.message`);
  // MetaMask's bridge puts domain.chainId in the scope; a request with an empty scope names no
  // chain to compare with, and the domain's chainId binds the signature by itself.
  if (domain.chainId !== undefined && chainId !== null) {
    const domainChain = asQuantity(domain.chainId, `${FIELD}.domain.chainId`);
    if (domainChain !== BigInt(chainId)) {
      throw invalidParams(
        `${FIELD}.domain.chainId`,
        `must be the request's chain ${chainId}, got ${show(domain.chainId)}`,
      );
    }
  }
}

/** eth_signTypedData_v4 [address, typed data (object or JSON string)]: EIP-712. */
export const signTypedData: RequestMethod = {
  name: 'eth_signTypedData_v4',
  accountTypes: ['eip155:eoa', 'eip155:erc4337'],
  handle: async ({ stored, params, chainId, signingKey }) => {
    const list = asArray(params, PARAMS, 2);
    const address = asAddress(list[0], `${PARAMS}[0]`);
    if (!sameAddress(address, stored.account.address)) {
      throw invalidParams(
        `${PARAMS}[0]`,
        `must be the account's address ${stored.account.address}`,
      );
    }
    const data = parseTypedData(list[1]);
    checkTypedData(data, chainId);
    let hash: Hex;
    try {
      hash = hashTypedData(data as unknown as TypedDataDefinition);
    } catch (error) {
      const detail =
        (error as { shortMessage?: string }).shortMessage ?? (error as Error).message ?? 'invalid';
      throw invalidParams(FIELD, `is not valid EIP-712 typed data: ${detail.slice(0, 200)}`);
    }
    const signature = await sign({ hash, privateKey: await signingKey(), to: 'hex' });
    return signature as Json;
  },
};
