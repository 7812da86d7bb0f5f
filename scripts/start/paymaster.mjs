// `npm start`, the Starknet paymaster part (docs/architecture/paymaster.md): builds
// packages/paymaster and runs `l2-paymaster` (SNIP-29) on loopback in front of the devnet that
// start.mjs started. Its relayer is the devnet's last predeployed account (the testkit's
// devnetRelayer). Its key, the node URL and the sponsor key go to the paymaster in its environment
// only (never its command line, which ps shows); ETH is a gas token beside STRK, and the demo
// sponsor key is printed. Its state (tracking ids, debts, sponsor budgets) is kept in memory: the
// devnet starts fresh each time, so does it. start.mjs passes in its own
// start()/log()/runOnce()/waitFor(), so it stops with everything else.
import {
  devnetRelayer,
  ETH_TOKEN,
  freePort,
  paymasterCommand,
  portAnswers,
} from '@l2wallet/testkit';
import path from 'node:path';

/** 1 ETH = this many STRK, for fees paid in ETH. */
export const ETH_PRICE_IN_STRK = '2500';

export async function startStarknetPaymaster({ root, devnetRpcUrl, start, log, runOnce, waitFor }) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await runOnce('building packages/paymaster', npm, [
    'run',
    'build',
    '--workspace',
    'packages/paymaster',
  ]);
  let port = Number(process.env.STARKNET_PAYMASTER_PORT ?? 8090);
  if (await portAnswers(port)) port = await freePort();
  const apiKey = process.env.STARKNET_PAYMASTER_API_KEY ?? 'local-demo-sponsor-key';
  const relayer = await devnetRelayer(devnetRpcUrl);
  const { command, args, env } = paymasterCommand(
    path.join(root, 'packages/paymaster/dist/cli.js'),
    {
      nodeUrl: devnetRpcUrl,
      relayer,
      apiKeys: [apiKey],
      gasTokens: [{ address: ETH_TOKEN, priceInStrk: ETH_PRICE_IN_STRK }],
      port,
      stateFile: ':memory:',
      rateLimit: 600,
    },
  );
  start('paymaster', command, args, { env });
  const url = `http://127.0.0.1:${port}`;
  const healthy = async () => (await fetch(`${url}/health`)).ok;
  if (!(await waitFor('paymaster', healthy))) return undefined;
  log(`Starknet paymaster (SNIP-29) is up at ${url} (relayer ${relayer.address})`);
  return {
    url,
    apiKey,
    lines: [
      `    SNIP-29 paymaster ${url}   (sponsored with x-paymaster-api-key: ${apiKey}; fees in STRK or ETH at ${ETH_PRICE_IN_STRK} STRK)`,
    ],
  };
}
