/**
 * A key's controls on a Starknet chain, with starknet.js's RpcProvider (single calls and
 * batches) and `ws`, against the devnet behind a counting proxy: a JWT required and the
 * contract list applied to starknet_call, starknet_getStorageAt and starknet_getEvents; refused
 * calls never reach the devnet and are never charged.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON-RPC answers checked field by field */
import { type DevnetServer, ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS } from '@l2wallet/devnet';
import {
  type AnvilService,
  type CountingProxy,
  startAnvil,
  startCountingProxy,
  startDevnet,
} from '@l2wallet/testkit';
import { RpcProvider } from 'starknet';
import WebSocket from 'ws';
import { startGateway, type RunningGateway } from '../src/server';
import { forwarded, ledgerOf, makeKey, signer, type Signer } from './accessHelpers';
import { call, gatewayConfig, post } from './helpers';

let anvil: AnvilService;
let devnet: DevnetServer & { stop(): Promise<void> };
let proxy: CountingProxy;
let gw: RunningGateway;
let ec: Signer;

beforeAll(async () => {
  anvil = await startAnvil();
  devnet = await startDevnet<DevnetServer>();
  proxy = await startCountingProxy(devnet.rpcUrl);
  gw = await startGateway(
    gatewayConfig(anvil.url, {
      chains: [
        { name: 'local', hosts: ['*'], upstreams: [anvil.url] },
        {
          name: 'starknet-sepolia',
          protocol: 'starknet',
          hosts: ['starknet.localhost'],
          upstreams: [proxy.url],
        },
      ],
    }),
  );
  ec = await signer('ES256');
});

afterAll(async () => {
  await gw?.close();
  await proxy?.stop();
  await devnet?.stop();
  await anvil?.stop();
});

it('RpcProvider with a JWT: the listed contract served, others refused per call, unsent and uncharged', async () => {
  const { key } = await makeKey(gw, {
    allow: { contracts: [STRK_TOKEN_ADDRESS] },
    jwt: { require: true, keys: [{ name: 'ec-1', pem: ec.pem }] },
  });
  const url = `${gw.url}/starknet-sepolia/v3/${key}`;
  const token = await ec.sign({ aud: key });
  const headers = { authorization: `Bearer ${token}` };
  const provider = new RpcProvider({ nodeUrl: url, headers });
  const batched = new RpcProvider({ nodeUrl: url, headers, batch: 0 });
  const [holder] = devnet.predeployedAccounts;
  const balanceOf = (p: RpcProvider, contractAddress: string) =>
    p.callContract({ contractAddress, entrypoint: 'balance_of', calldata: [holder.address] });
  const sent = () =>
    ['starknet_call', 'starknet_getStorageAt', 'starknet_getEvents'].map((m) =>
      forwarded(proxy, m),
    );
  const before = sent();

  expect(await balanceOf(provider, STRK_TOKEN_ADDRESS)).toHaveLength(2);
  expect(await provider.getStorageAt(STRK_TOKEN_ADDRESS, '0x1')).toBeDefined();
  const [events, storage] = await Promise.all([
    batched.getEvents({ address: STRK_TOKEN_ADDRESS, chunk_size: 1 }),
    batched.getStorageAt(STRK_TOKEN_ADDRESS, '0x2'),
  ]);
  expect(Array.isArray(events.events)).toBe(true);
  expect(storage).toBeDefined();
  const served = sent();
  expect(served).toEqual([before[0] + 1, before[1] + 2, before[2] + 1]);
  const charged = (await ledgerOf(gw, key)).total;

  await expect(balanceOf(provider, ETH_TOKEN_ADDRESS)).rejects.toThrow(/contract allowlist/);
  await expect(provider.getStorageAt(ETH_TOKEN_ADDRESS, '0x1')).rejects.toThrow(
    /contract allowlist/,
  );
  await expect(batched.getEvents({ address: ETH_TOKEN_ADDRESS, chunk_size: 1 })).rejects.toThrow(
    /contract allowlist/,
  );
  // Without the token, or with an expired one: refused before any work.
  const bare = new RpcProvider({ nodeUrl: url });
  await expect(bare.getStorageAt(STRK_TOKEN_ADDRESS, '0x3')).rejects.toThrow(/invalid JWT/);
  const expired = await ec.sign({ aud: key, exp: Math.floor(Date.now() / 1000) - 1 });
  const stale = new RpcProvider({ nodeUrl: url, headers: { authorization: `Bearer ${expired}` } });
  await expect(stale.getStorageAt(STRK_TOKEN_ADDRESS, '0x3')).rejects.toThrow(/expired/);
  expect(sent()).toEqual(served);
  expect((await ledgerOf(gw, key)).total).toBe(charged);

  // The same over a WebSocket opened with the token: each message judged alone.
  const socket = new WebSocket(`${gw.url.replace(/^http/, 'ws')}/starknet-sepolia/ws/v3/${key}`, {
    headers,
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  try {
    const answer = new Promise<any>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(data.toString()))),
    );
    socket.send(
      JSON.stringify([
        call('starknet_getStorageAt', [STRK_TOKEN_ADDRESS, '0x4', 'latest'], 1),
        call('starknet_getStorageAt', [ETH_TOKEN_ADDRESS, '0x4', 'latest'], 2),
      ]),
    );
    const [listed, other] = await answer;
    expect(listed.result).toBeDefined();
    expect(other.error).toMatchObject({ code: -32002, data: { allowlist: 'contracts' } });
  } finally {
    socket.close();
  }
  expect(sent()).toEqual([served[0], served[1] + 1, served[2]]);
  expect((await ledgerOf(gw, key)).total).toBe(charged + 80);
  // A raw call with no token is refused whole with 401.
  expect((await post(url, call('starknet_chainId'))).status).toBe(401);
});
