import { InvalidInputError } from '@metamask/snaps-sdk';
import { extractContractHashes, isSierra, type CompiledSierra } from 'starknet';
import { any, optional, string, type, union } from 'superstruct';

import { invalidParams, userRejected } from '../errors';
import { requireOwnAccountKey } from '../flows/accounts';
import { prepareSend, requireFunds, send } from '../flows/send';
import { transactionFields } from '../flows/sendV3';
import { CLASS_HASH_NOT_FOUND, classCall, getChain } from '../node/chain';
import { nodeStarknetVersion } from '../node/starknetVersion';
import { toChainError } from '../node/errors';
import { pickAliased, pickAliasedValue, requireAliasedValue } from '../rpc/aliases';
import { defineMethod } from '../rpc/dispatcher';
import { TxDetailsStruct } from '../starknet/details';
import { toHex } from '../starknet/felt';
import { AddressStruct, FeltStruct, OptionalChainIdStruct } from '../starknet/structs';
import type { DeclarePayload } from '../starknet/transaction';
import { confirm, DeclareScreen } from '../ui';

const ContractPayloadStruct = type({
  contract: union([string(), any()]),
  casm: optional(any()),
  compiledClassHash: optional(FeltStruct),
  classHash: optional(FeltStruct),
});

/**
 * The Sierra class and both hashes, or -32602 naming the member that is wrong. A compiled class
 * hash computed from `casm` is the one the network expects at `starknetVersion` (starknet.js:
 * Blake2s from 0.14.1, Poseidon before).
 */
function readPayload(
  payload: {
    contract?: unknown;
    casm?: unknown;
    compiledClassHash?: string;
    classHash?: string;
  },
  starknetVersion: string | undefined,
): DeclarePayload {
  let contract: unknown = payload.contract;
  if (typeof contract === 'string') {
    try {
      contract = JSON.parse(contract) as unknown;
    } catch {
      throw invalidParams('contractPayload.contract', 'is not valid JSON');
    }
  }
  if (typeof contract !== 'object' || contract === null || !isSierra(contract as never)) {
    throw invalidParams(
      'contractPayload.contract',
      'must be a Sierra contract class (with sierra_program); only Cairo 1 classes are declared with v3 transactions',
    );
  }
  // A string ABI is parsed, so the class hash and the ABI sent are formatted the same way.
  const raw = contract as CompiledSierra;
  let sierra: CompiledSierra;
  try {
    sierra = {
      ...raw,
      abi: typeof raw.abi === 'string' ? (JSON.parse(raw.abi) as CompiledSierra['abi']) : raw.abi,
    };
  } catch {
    throw invalidParams('contractPayload.contract.abi', 'is not valid JSON');
  }
  let hashes;
  try {
    hashes = extractContractHashes(
      {
        contract: sierra,
        casm: payload.casm as never,
        compiledClassHash: payload.compiledClassHash,
        classHash: payload.classHash,
      },
      starknetVersion,
    );
  } catch {
    throw invalidParams(
      'contractPayload',
      'needs casm (the compiled CASM class) or compiledClassHash, and a valid Sierra class',
    );
  }
  return {
    sierra,
    classHash: toHex(hashes.classHash),
    compiledClassHash: toHex(hashes.compiledClassHash as string),
  };
}

/**
 * l2_declareContract: checks the class is not declared yet, estimates, asks, then sends a v3
 * declare of `contractPayload` (Sierra + CASM or compiledClassHash) from `senderAddress`.
 * Returns {transaction_hash, class_hash}. The production Starknet snap's names are accepted too:
 * `address`, `payload`, `details`.
 */
export const declareContract = defineMethod({
  names: ['declareContract'],
  params: type({
    senderAddress: optional(AddressStruct),
    address: optional(AddressStruct),
    contractPayload: optional(ContractPayloadStruct),
    payload: optional(ContractPayloadStruct),
    invocationsDetails: optional(TxDetailsStruct),
    details: optional(TxDetailsStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async (params, { origin }) => {
    const { chainId } = params;
    const senderAddress = pickAliased({
      senderAddress: params.senderAddress,
      address: params.address,
    });
    const contractPayload = requireAliasedValue(
      { contractPayload: params.contractPayload, payload: params.payload },
      'an object with the compiled class under "contract"',
    );
    const details = pickAliasedValue({
      invocationsDetails: params.invocationsDetails,
      details: params.details,
    });
    const field = params.senderAddress ? 'senderAddress' : 'address';
    const key = await requireOwnAccountKey(senderAddress, chainId, field, origin);
    const chain = getChain(chainId);
    // Only a hash computed here depends on the network's version; a stated one is sent as given.
    const computesHash =
      contractPayload.casm !== undefined && contractPayload.compiledClassHash === undefined;
    const declare = readPayload(
      contractPayload,
      computesHash ? await nodeStarknetVersion(chain.rpc) : undefined,
    );
    const prepared = await prepareSend(chain, key, { kind: 'declare', declare }, details, {
      also: [classCall(declare.classHash)],
      check: (snapshot, [declared]) => {
        if (declared.ok) {
          throw new InvalidInputError(
            `Class ${declare.classHash} is already declared on ${chain.network.name}: use it as it is, there is nothing to declare.`,
            { classHash: declare.classHash },
          );
        }
        if (declared.error.code !== CLASS_HASH_NOT_FOUND) {
          throw toChainError(declared.error, 'Checking the class');
        }
        if (!snapshot.deployed) {
          throw invalidParams(
            'senderAddress',
            `is not deployed on ${chain.network.name}: deploy the account first (l2_createAccount with deploy: true)`,
          );
        }
      },
      field: 'invocationsDetails',
    });
    if (prepared.route !== 'v3') {
      throw new Error('A declaration is never relayed');
    }
    requireFunds(prepared, 'the declaration');
    const approved = await confirm(
      origin,
      DeclareScreen({
        sends: true,
        signer: key.address,
        network: chain.network,
        classHash: declare.classHash,
        compiledClassHash: declare.compiledClassHash,
        fields: transactionFields(prepared),
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    const { transactionHash } = await send(prepared);
    return { transaction_hash: transactionHash as string, class_hash: declare.classHash };
  },
});
