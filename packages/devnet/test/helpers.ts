import { Account, RpcProvider } from 'starknet';
import { DevnetServer, DevnetServerOptions, startDevnetServer } from '../src';

/** Starts a devnet on an ephemeral loopback port; the caller must close it. */
export async function startTestDevnet(options: DevnetServerOptions = {}): Promise<{
  devnet: DevnetServer;
  provider: RpcProvider;
  account: (index?: number) => Account;
}> {
  const devnet = await startDevnetServer({ host: '127.0.0.1', port: 0, ...options });
  const provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
  const account = (index = 0): Account => {
    const a = devnet.predeployedAccounts[index];
    return new Account({ provider, address: a.address, signer: a.private_key });
  };
  return { devnet, provider, account };
}

export const WAIT = { retryInterval: 20 };
