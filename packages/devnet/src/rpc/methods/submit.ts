import type { SimulationFlags } from '../../core/devnet';
import { toHex } from '../../core/felt';
import { InvalidParamError, parseTransaction, Transaction } from '../../core/transactions';
import { blockIdParam, required, stringList } from '../params';
import { feeEstimateJson, simulationJson } from '../serialize';
import type { DevnetHost, MethodTable } from './host';

function transactionsParam(value: unknown, name: string): Transaction[] {
  if (!Array.isArray(value)) throw new InvalidParamError(name, 'expected an array of transactions');
  return value.map((tx, index) => parseTransaction(tx, `${name}[${index}]`));
}

function simulationFlags(value: unknown, name: string): SimulationFlags {
  const flags = stringList(value ?? [], name);
  for (const flag of flags) {
    if (flag !== 'SKIP_VALIDATE' && flag !== 'SKIP_FEE_CHARGE') {
      throw new InvalidParamError(name, `unknown flag ${flag}`);
    }
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
      const flags = simulationFlags(p.simulation_flags, 'simulation_flags');
      return h.devnet.estimateFee(txs, blockIdParam(p), flags.skipValidate).map(feeEstimateJson);
    },
  },
  starknet_simulateTransactions: {
    params: ['block_id', 'transactions', 'simulation_flags'],
    handler: (h, p) => {
      const txs = transactionsParam(required(p, 'transactions'), 'transactions');
      const flags = simulationFlags(p.simulation_flags, 'simulation_flags');
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
