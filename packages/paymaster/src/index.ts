/** @l2wallet/paymaster: a SNIP-29 paymaster service (see README.md). */
import { Paymaster, type PaymasterOptions } from './paymaster';
import { serve } from './server/http';

export { CODES, errors, PaymasterError } from './errors';
export {
  DEFAULT_POLICY,
  type Health,
  Paymaster,
  type PaymasterOptions,
  StartupError,
} from './paymaster';
export { SNIP9_INTERFACE_IDS } from './protocol/outsideExecution';

export interface RunningPaymaster {
  url: string;
  port: number;
  paymaster: Paymaster;
  close(): Promise<void>;
}

/** Checks the node and the relayer, then serves on host:port (0: a free port). */
export async function startPaymaster(
  options: PaymasterOptions & { host: string; port: number },
): Promise<RunningPaymaster> {
  const paymaster = await Paymaster.start(options);
  const server = await serve(paymaster, options.host, options.port);
  return {
    url: server.url,
    port: server.port,
    paymaster,
    close: async () => {
      await paymaster.close();
      await server.close();
    },
  };
}
