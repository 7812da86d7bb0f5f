/**
 * v3 transaction hashes, computed with starknet.js from validated details.
 */
import { hash, transaction, type Call } from 'starknet';

import { toHex } from '../rpc/structs';
import type { V3Details } from './details';

/** Validated details (V3DetailsStruct fills every default) with the version the caller signs. */
type SignedDetails = Required<V3Details> & { version: string };

export type V3InvokeInput = {
  senderAddress: string;
  chainId: string;
  calls: Call[];
  details: SignedDetails;
};

/** Argent 0.3.1 is a Cairo 1 account: __execute__ takes the Cairo 1 calldata layout. */
export function executeCalldata(calls: readonly Call[]): string[] {
  return transaction.getExecuteCalldata([...calls], '1').map(toHex);
}

export function invokeTransactionHash({
  senderAddress,
  chainId,
  calls,
  details,
}: V3InvokeInput): string {
  return hash.calculateInvokeTransactionHash({
    senderAddress,
    version: details.version as '0x3',
    compiledCalldata: executeCalldata(calls),
    chainId: chainId as Parameters<typeof hash.calculateInvokeTransactionHash>[0]['chainId'],
    nonce: details.nonce,
    accountDeploymentData: details.accountDeploymentData,
    nonceDataAvailabilityMode: details.nonceDataAvailabilityMode,
    feeDataAvailabilityMode: details.feeDataAvailabilityMode,
    resourceBounds: details.resourceBounds,
    tip: details.tip,
    paymasterData: details.paymasterData,
  });
}

export type V3DeclareInput = {
  senderAddress: string;
  chainId: string;
  classHash: string;
  compiledClassHash: string;
  details: SignedDetails;
};

export function declareTransactionHash({
  senderAddress,
  chainId,
  classHash,
  compiledClassHash,
  details,
}: V3DeclareInput): string {
  return hash.calculateDeclareTransactionHash({
    classHash,
    compiledClassHash,
    senderAddress,
    version: details.version as '0x3',
    chainId: chainId as Parameters<typeof hash.calculateDeclareTransactionHash>[0]['chainId'],
    nonce: details.nonce,
    accountDeploymentData: details.accountDeploymentData,
    nonceDataAvailabilityMode: details.nonceDataAvailabilityMode,
    feeDataAvailabilityMode: details.feeDataAvailabilityMode,
    resourceBounds: details.resourceBounds,
    tip: details.tip,
    paymasterData: details.paymasterData,
  });
}
