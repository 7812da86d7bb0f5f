/**
 * Decodes call data for the confirmation dialog with the `abis` a dapp passes to l2_executeTxn; the
 * dialog labels such names as supplied by the site. Accepted shapes: one ABI (array of entries), a
 * list of ABIs, or an object that maps contract addresses to ABIs. A call whose function is not
 * found, or whose calldata does not fit the ABI, is shown raw: the dialog never hides a value.
 */
import { CallData, type Abi } from 'starknet';

import { formatAddress } from './felt';
import type { TxCall } from './transaction';

export type DecodedArgument = { label: string; value: string };

/** A call as a dialog shows it. */
export type DecodedCall = {
  contractAddress: string;
  entrypoint: string;
  /** Named arguments when an ABI decoded the calldata, else the raw felts. */
  args: DecodedArgument[];
  decoded: boolean;
  /** Where the argument names come from: the site's `abis`, the class read from the chain. */
  namesFrom?: 'site' | 'chain';
};

type AbiEntry = {
  type?: string;
  name?: string;
  inputs?: { name: string; type: string }[];
  items?: AbiEntry[];
};

function isAbi(value: unknown): value is AbiEntry[] {
  return (
    Array.isArray(value) &&
    value.every((entry) => typeof entry === 'object' && entry !== null && 'type' in entry)
  );
}

/** The ABI candidates for a contract, most specific first. */
function abisFor(abis: unknown, contractAddress: string): AbiEntry[][] {
  if (isAbi(abis)) {
    return [abis];
  }
  if (Array.isArray(abis)) {
    return abis.filter(isAbi);
  }
  if (typeof abis === 'object' && abis !== null) {
    const target = BigInt(contractAddress);
    const matching: AbiEntry[][] = [];
    for (const [key, value] of Object.entries(abis as Record<string, unknown>)) {
      let same = false;
      try {
        same = BigInt(key) === target;
      } catch {
        same = false;
      }
      if (same && isAbi(value)) {
        matching.push(value);
      }
    }
    return matching;
  }
  return [];
}

function findFunction(abi: AbiEntry[], name: string): AbiEntry | undefined {
  for (const entry of abi) {
    if (entry.type === 'function' && entry.name === name) {
      return entry;
    }
    if (entry.type === 'interface' && Array.isArray(entry.items)) {
      const inner = findFunction(entry.items, name);
      if (inner) {
        return inner;
      }
    }
  }
  return undefined;
}

function shortType(type: string): string {
  return type.split('::').pop() ?? type;
}

/** A decoded value; addresses and class hashes as padded hex, as the user knows them. */
function show(value: unknown, type: string): string {
  if (typeof value === 'bigint' && /(ContractAddress|ClassHash)$/u.test(type)) {
    return formatAddress(value);
  }
  if (typeof value === 'bigint') {
    return value.toString();
  }
  if (typeof value === 'object' && value !== null) {
    return JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'bigint' ? item.toString() : item,
    );
  }
  return String(value);
}

function rawArgs(calldata: readonly string[]): DecodedArgument[] {
  return calldata.map((value, index) => ({ label: `calldata[${index}]`, value }));
}

/**
 * `namesFrom` says whose ABI `abis` is: the site's (the dialog labels the names as supplied by
 * the site) or the chain's (node/classAbi.ts).
 */
export function decodeCall(
  call: TxCall,
  abis: unknown,
  namesFrom: 'site' | 'chain' = 'site',
): DecodedCall {
  for (const abi of abisFor(abis, call.contractAddress)) {
    const fn = findFunction(abi, call.entrypoint);
    if (!fn?.inputs) {
      continue;
    }
    try {
      const callData = new CallData(abi as Abi);
      const types = fn.inputs.map((input) => input.type);
      const decodedValues: unknown[] =
        types.length === 0
          ? []
          : types.length === 1
            ? [callData.decodeParameters(types, [...call.calldata])]
            : (callData.decodeParameters(types, [...call.calldata]) as unknown[]);
      // Re-encoding must give back exactly the calldata: trailing or misread felts never hide.
      const reencoded = callData.compile(call.entrypoint, decodedValues as never[]);
      if (
        reencoded.length !== call.calldata.length ||
        reencoded.some((felt, index) => BigInt(felt) !== BigInt(call.calldata[index]))
      ) {
        continue;
      }
      return {
        contractAddress: call.contractAddress,
        entrypoint: call.entrypoint,
        decoded: true,
        namesFrom,
        args: fn.inputs.map((input, index) => ({
          label: `${input.name} (${shortType(input.type)})`,
          value: show(decodedValues[index], input.type),
        })),
      };
    } catch {
      // Calldata that does not fit the ABI is shown raw below.
    }
  }
  return {
    contractAddress: call.contractAddress,
    entrypoint: call.entrypoint,
    decoded: false,
    args: rawArgs(call.calldata),
  };
}
