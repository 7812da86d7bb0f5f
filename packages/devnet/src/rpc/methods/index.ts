import { normalizeParams } from '../params';
import { blockMethods } from './blocks';
import { devnetMethods } from './devnet';
import type { DevnetHost, MethodTable } from './host';
import { messageMethods } from './messages';
import { stateMethods } from './state';
import { submitMethods } from './submit';
import { transactionMethods } from './transactions';

export type { DevnetHost, MethodSpec } from './host';

/** Every method the devnet answers: Starknet JSON-RPC 0.10, then starknet-devnet's devnet_*. */
export const methods: MethodTable = {
  ...blockMethods,
  ...stateMethods,
  ...submitMethods,
  ...transactionMethods,
  ...messageMethods,
  ...devnetMethods,
};

export function runMethod(host: DevnetHost, name: string, rawParams: unknown): unknown {
  const spec = methods[name];
  return spec.handler(host, normalizeParams(rawParams, spec.params));
}
