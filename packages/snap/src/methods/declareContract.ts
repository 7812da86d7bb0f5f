import { InvalidInputError } from '@metamask/snaps-sdk';
import { any, optional, string, type, union } from 'superstruct';
import { extractContractHashes, isSierra, type CompiledSierra } from 'starknet';

import { requireOwnAccountKey } from '../accounts';
import {
  maxChargeOf,
  requireBoundsWithinMaxFee,
  requireFunds,
  u256FromFelts,
} from '../chain/account';
import { givenBounds, ChainTxDetailsStruct } from '../chain/details';
import { DeclareScreen } from '../chain/dialogs';
import { toChainError } from '../chain/errors';
import {
  boundsFromEstimate,
  boundsWithinMaxFee,
  MaxFeeTooLowError,
  toFeeEstimateResult,
  type ResourceBounds,
} from '../chain/fees';
import {
  classHashAtCall,
  CONTRACT_NOT_FOUND,
  estimateTransactions,
  getChain,
  nonceCall,
  noteSubmittedNonce,
  readNonce,
  submitTransaction,
  viewCall,
  withNextNonce,
} from '../chain/node';
import { declareRecord, storeRecords } from '../chain/records';
import { buildDeclare, estimateDetails, type DeclarePayload } from '../chain/transactions';
import { invalidParams, userRejected } from '../rpc/errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, FeltStruct, OptionalChainIdStruct, toHex } from '../rpc/structs';
import { pickAliased, pickAliasedValue, requireAliasedValue } from '../rpc/aliases';
import { STRK_TOKEN_ADDRESS } from '../state';
import { confirm } from '../ui';

const CLASS_HASH_NOT_FOUND = 28;

const ContractPayloadStruct = type({
  contract: union([string(), any()]),
  casm: optional(any()),
  compiledClassHash: optional(FeltStruct),
  classHash: optional(FeltStruct),
});

/** The Sierra class and both hashes, or -32602 naming the member that is wrong. */
function readPayload(payload: {
  contract?: unknown;
  casm?: unknown;
  compiledClassHash?: string;
  classHash?: string;
}): DeclarePayload {
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
    hashes = extractContractHashes({
      contract: sierra,
      casm: payload.casm as never,
      compiledClassHash: payload.compiledClassHash,
      classHash: payload.classHash,
    });
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
    invocationsDetails: optional(ChainTxDetailsStruct),
    details: optional(ChainTxDetailsStruct),
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
    const declare = readPayload(contractPayload);
    const chain = getChain(chainId);

    const [declared, classHashAt, nonceResult, balance] = await chain.rpc.batch<unknown>([
      {
        method: 'starknet_getClass',
        params: { block_id: 'pre_confirmed', class_hash: declare.classHash },
      },
      classHashAtCall(key.address),
      nonceCall(key.address),
      viewCall(STRK_TOKEN_ADDRESS, 'balance_of', [key.address], 'pre_confirmed'),
    ]);
    if (declared.ok) {
      throw new InvalidInputError(
        `Class ${declare.classHash} is already declared on ${chain.network.name}: use it as it is, there is nothing to declare.`,
        { classHash: declare.classHash },
      );
    }
    if (declared.error.code !== CLASS_HASH_NOT_FOUND) {
      throw toChainError(declared.error, 'Checking the class');
    }
    if (!classHashAt.ok) {
      if (classHashAt.error.code === CONTRACT_NOT_FOUND) {
        throw invalidParams(
          'senderAddress',
          `is not deployed on ${chain.network.name}: deploy the account first (l2_createAccount with deploy: true)`,
        );
      }
      throw toChainError(classHashAt.error, 'Reading the account');
    }
    if (!nonceResult.ok) {
      throw toChainError(nonceResult.error, 'Reading the account nonce');
    }
    if (!balance.ok) {
      throw toChainError(balance.error, 'Reading the STRK balance');
    }

    const base = {
      tip: details?.tip ?? 0n,
      paymasterData: details?.paymasterData ?? [],
      accountDeploymentData: details?.accountDeploymentData ?? [],
      nonceDataAvailabilityMode: details?.nonceDataAvailabilityMode,
      feeDataAvailabilityMode: details?.feeDataAvailabilityMode,
    };
    const skipValidate = details?.skipValidate ?? true;
    const given = givenBounds(details);
    let bounds: ResourceBounds;
    let overallFee: bigint | undefined;
    if (given) {
      bounds = given;
      requireBoundsWithinMaxFee(
        maxChargeOf(given, base.tip),
        details?.maxFee,
        'invocationsDetails',
      );
    } else {
      const [estimate] = await estimateTransactions(
        chain.rpc,
        [
          buildDeclare(
            key.address,
            declare,
            estimateDetails(details?.nonce ?? BigInt(nonceResult.result as string), base),
            { chainId, privateKey: key.privateKey, query: true, sign: !skipValidate },
          ),
        ],
        skipValidate,
      );
      try {
        bounds =
          details?.maxFee === undefined
            ? boundsFromEstimate(estimate)
            : boundsWithinMaxFee(estimate, details.maxFee, base.tip);
      } catch (error) {
        if (error instanceof MaxFeeTooLowError) {
          throw invalidParams(
            'invocationsDetails.maxFee',
            error.message.replace(/^details\.maxFee /u, ''),
          );
        }
        throw error;
      }
      overallFee = BigInt(toFeeEstimateResult([estimate], [bounds]).overallFee);
    }
    const maxCharge = maxChargeOf(bounds, base.tip);
    requireFunds(
      key.address,
      u256FromFelts(balance.result as string[]),
      maxCharge,
      'the declaration',
    );

    const approved = await confirm(
      origin,
      DeclareScreen({
        sender: key.address,
        network: chain.network,
        classHash: declare.classHash,
        compiledClassHash: declare.compiledClassHash,
        maxFee: maxCharge,
        overallFee,
      }),
    );
    if (!approved) {
      throw userRejected();
    }

    const send = async (nonce: bigint): Promise<string> =>
      submitTransaction(
        chain.rpc,
        buildDeclare(
          key.address,
          declare,
          { ...base, nonce, resourceBounds: bounds },
          {
            chainId,
            privateKey: key.privateKey,
          },
        ),
        'Declaration',
      );
    let transactionHash: string;
    if (details?.nonce !== undefined) {
      transactionHash = await send(details.nonce);
      noteSubmittedNonce(chainId, key.address, details.nonce);
    } else {
      transactionHash = await withNextNonce(
        chainId,
        key.address,
        () => readNonce(chain.rpc, key.address),
        send,
      );
    }
    await storeRecords([declareRecord(transactionHash, key.address, declare.classHash, chainId)]);
    return { transaction_hash: transactionHash, class_hash: declare.classHash };
  },
});
