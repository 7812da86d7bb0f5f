/** An error the Starknet JSON-RPC spec defines, with its code, message and optional data. */
export class StarknetRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'StarknetRpcError';
  }
}

export const rpcErrors = {
  contractNotFound: () => new StarknetRpcError(20, 'Contract not found'),
  entrypointNotFound: () =>
    new StarknetRpcError(21, 'Requested entry point does not exist in the contract'),
  blockNotFound: () => new StarknetRpcError(24, 'Block not found'),
  invalidTxnIndex: () => new StarknetRpcError(27, 'Invalid transaction index in a block'),
  classHashNotFound: () => new StarknetRpcError(28, 'Class hash not found'),
  txnHashNotFound: () => new StarknetRpcError(29, 'Transaction hash not found'),
  pageSizeTooBig: () => new StarknetRpcError(31, 'Requested page size is too big'),
  tooManyKeysInFilter: () => new StarknetRpcError(34, 'Too many keys provided in a filter'),
  invalidContinuationToken: () =>
    new StarknetRpcError(33, 'The supplied continuation token is invalid or unknown'),
  contractError: (revertError: string) =>
    new StarknetRpcError(40, 'Contract error', { revert_error: revertError }),
  transactionExecutionError: (transactionIndex: number, executionError: string) =>
    new StarknetRpcError(41, 'Transaction execution error', {
      transaction_index: transactionIndex,
      execution_error: executionError,
    }),
  classAlreadyDeclared: () => new StarknetRpcError(51, 'Class already declared'),
  invalidTransactionNonce: (detail: string) =>
    new StarknetRpcError(52, 'Invalid transaction nonce', detail),
  insufficientResourcesForValidate: () =>
    new StarknetRpcError(
      53,
      "The transaction's resources don't cover validation or the minimal transaction fee",
    ),
  insufficientAccountBalance: () =>
    new StarknetRpcError(
      54,
      "Account balance is smaller than the transaction's maximal fee (calculated as the sum of each resource's limit x max price)",
    ),
  validationFailure: (detail: string) =>
    new StarknetRpcError(55, 'Account validation failed', detail),
  nonAccount: () => new StarknetRpcError(58, 'Sender address is not an account contract'),
  duplicateTx: () =>
    new StarknetRpcError(59, 'A transaction with the same hash already exists in the mempool'),
  unsupportedTxVersion: () => new StarknetRpcError(61, 'the transaction version is not supported'),
  compiledClassHashMismatch: () =>
    new StarknetRpcError(
      60,
      'the compiled class hash did not match the one supplied in the transaction',
    ),
  storageProofNotSupported: () =>
    new StarknetRpcError(
      42,
      "the node doesn't support storage proofs for blocks that are too far in the past",
    ),
  compilationError: (detail: string) =>
    new StarknetRpcError(100, 'Failed to compile the contract', { compilation_error: detail }),
  noTraceAvailable: (status: 'RECEIVED' | 'REJECTED') =>
    new StarknetRpcError(10, 'No trace available for transaction', { status }),
  unsupportedContractClassVersion: () =>
    new StarknetRpcError(62, 'the contract class version is not supported'),
};

/** A failure inside contract execution (a Cairo panic); the message is the revert reason. */
export class ContractExecutionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractExecutionError';
  }
}

/**
 * A devnet_* action the chain's state does not allow (accepting the pre-confirmed block on L1,
 * say): starknet-devnet answers these with code -1 and the reason.
 */
export class UnsupportedActionError extends StarknetRpcError {
  constructor(message: string) {
    super(-1, message);
    this.name = 'UnsupportedActionError';
  }
}
