import type { SimulationFlags } from '../../core/devnet';
import { toHex } from '../../core/felt';
import {
  InvalidParamError,
  parseTransaction,
  QUERY_VERSION_3,
  Transaction,
  TX_VERSION_3,
} from '../../core/transactions';
import { blockIdParam, required, stringList } from '../params';
import { feeEstimateJson, simulationJson } from '../serialize';
import type { DevnetHost, MethodTable } from './host';

function transactionsParam(value: unknown, name: string): Transaction[] {
  if (!Array.isArray(value)) throw new InvalidParamError(name, 'expected an array of transactions');
  return value.map((raw, index) => {
    const tx = parseTransaction(raw, `${name}[${index}]`);
    // The spec's broadcasted transactions are v3 (or its query version) only: another version
    // does not match the params' schema. Submissions answer 61 instead, as the spec lists.
    if (tx.version !== TX_VERSION_3 && tx.version !== QUERY_VERSION_3) {
      throw new InvalidParamError(
        `${name}[${index}].version`,
        "expected '0x3' or its query version",
      );
    }
    return tx;
  });
}

/** estimateFee takes SKIP_VALIDATE only; simulateTransactions also SKIP_FEE_CHARGE. */
function simulationFlags(value: unknown, name: string, allowed: string[]): SimulationFlags {
  // Required by the spec (an empty list for none), as nodes require it.
  if (value === undefined) throw new InvalidParamError(name, 'missing');
  const flags = stringList(value, name);
  for (const flag of flags) {
    if (!allowed.includes(flag)) throw new InvalidParamError(name, `unknown flag ${flag}`);
  }
  return {
    skipValidate: flags.includes('SKIP_VALIDATE'),
    skipFeeCharge: flags.includes('SKIP_FEE_CHARGE'),
  };
}

function addTransaction(
  host: DevnetHost,
  raw: unknown,
  name: string,
  type: Transaction['type'],
): Record<string, string> {
  const tx = parseTransaction(raw, name, type);
  const { hash } = host.devnet.submitTransaction(tx);
  const result: Record<string, string> = { transaction_hash: toHex(hash) };
  if (tx.type === 'DEPLOY_ACCOUNT') result.contract_address = toHex(tx.senderAddress);
  if (tx.type === 'DECLARE') result.class_hash = toHex(tx.classHash);
  return result;
}

/** Transactions on their way in: fee estimates, simulations, submissions. */
export const submitMethods: MethodTable = {
  starknet_estimateFee: {
    params: ['request', 'simulation_flags', 'block_id'],
    handler: (h, p) => {
      const txs = transactionsParam(required(p, 'request'), 'request');
      const flags = simulationFlags(p.simulation_flags, 'simulation_flags', ['SKIP_VALIDATE']);
      return h.devnet.estimateFee(txs, blockIdParam(p), flags.skipValidate).map(feeEstimateJson);
    },
  },
  starknet_simulateTransactions: {
    params: ['block_id', 'transactions', 'simulation_flags'],
    handler: (h, p) => {
      const txs = transactionsParam(required(p, 'transactions'), 'transactions');
      const flags = simulationFlags(p.simulation_flags, 'simulation_flags', [
        'SKIP_VALIDATE',
        'SKIP_FEE_CHARGE',
      ]);
      return h.devnet.simulate(txs, blockIdParam(p), flags, true).map(simulationJson);
    },
  },
  starknet_addInvokeTransaction: {
    params: ['invoke_transaction'],
    handler: (h, p) =>
      addTransaction(h, required(p, 'invoke_transaction'), 'invoke_transaction', 'INVOKE'),
  },
  starknet_addDeployAccountTransaction: {
    params: ['deploy_account_transaction'],
    handler: (h, p) =>
      addTransaction(
        h,
        required(p, 'deploy_account_transaction'),
        'deploy_account_transaction',
        'DEPLOY_ACCOUNT',
      ),
  },
  starknet_addDeclareTransaction: {
    params: ['declare_transaction'],
    handler: (h, p) =>
      addTransaction(h, required(p, 'declare_transaction'), 'declare_transaction', 'DECLARE'),
  },
};
