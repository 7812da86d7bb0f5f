import {
  InvalidParamsError,
  MAINNET_CHAIN_ID,
  StarknetSnapClient,
  TESTNET_CHAIN_ID,
  createStarknetWindowObject,
  type AccountRecord,
} from '../src';
import { FakeProvider } from './fake-provider';

/** A fake snap with a current network and per-network accounts, behind a fake provider. */
function fakeSnap(options: { accounts?: Record<string, string[]>; networkDelayMs?: number } = {}) {
  const provider = new FakeProvider();
  const state = {
    chainId: TESTNET_CHAIN_ID,
    accounts: options.accounts ?? {},
    inFlight: 0,
    maxInFlight: 0,
  };
  const names: Record<string, string> = {
    [TESTNET_CHAIN_ID]: 'Testnet',
    [MAINNET_CHAIN_ID]: 'Mainnet',
  };
  provider.snapMethods.set('l2_getCurrentNetwork', async () => {
    const network = { name: names[state.chainId], chainId: state.chainId };
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    if (options.networkDelayMs) await new Promise((r) => setTimeout(r, options.networkDelayMs));
    state.inFlight -= 1;
    return network;
  });
  provider.snapMethods.set('l2_switchNetwork', (p) => {
    const { chainId } = p as { chainId: string };
    if (!names[chainId]) return false;
    state.chainId = chainId;
    return true;
  });
  provider.snapMethods.set('l2_recoverAccounts', (p) => {
    const { chainId } = p as { chainId: string };
    return (state.accounts[chainId] ?? []).map((address, i): AccountRecord => ({
      address,
      addressIndex: i,
      publicKey: '0xpk',
      addressSalt: '0xpk',
      deployTxnHash: '',
      derivationPath: `m/44'/9004'/0'/0/${i}`,
      chainId,
    }));
  });
  // Without deploy: derives (idempotently) the account at the index.
  provider.snapMethods.set('l2_createAccount', (p) => {
    const { chainId, addressIndex } = p as { chainId: string; addressIndex: number };
    const known = state.accounts[chainId] ?? [];
    return { address: known[addressIndex] ?? `0xnew-${chainId}-${addressIndex}`, addressIndex };
  });
  const client = new StarknetSnapClient({ provider, snapId: 'local:http://127.0.0.1:1' });
  return { provider, state, client };
}

describe('get-starknet wallet object', () => {
  it('has the identity members of a StarknetWindowObject', () => {
    const wallet = createStarknetWindowObject(fakeSnap().client);
    expect(wallet.id).toBe('metamask-starknet-snap');
    expect(typeof wallet.name).toBe('string');
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml/);
  });

  it('wallet_requestAccounts derives account 0 offline (createAccount without deploy, no recovery scan)', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    const wallet = createStarknetWindowObject(client);
    await expect(wallet.request({ type: 'wallet_requestAccounts' })).resolves.toEqual(['0xa0']);
    expect(provider.snapRequests()).toEqual([
      { method: 'l2_getCurrentNetwork' },
      {
        method: 'l2_createAccount',
        params: { addressIndex: 0, deploy: false, chainId: TESTNET_CHAIN_ID },
      },
    ]);
  });

  it('selectAccount chooses the account the wallet acts for and emits accountsChanged', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0', '0xa1'] } });
    const wallet = createStarknetWindowObject(client);
    expect(wallet.accountIndex).toBe(0);
    const seen: unknown[] = [];
    wallet.on('accountsChanged', (accounts) => seen.push(accounts));
    await wallet.request({ type: 'wallet_requestAccounts' });
    await expect(wallet.selectAccount(1)).resolves.toEqual(['0xa1']);
    expect(wallet.accountIndex).toBe(1);
    expect(seen).toEqual([['0xa1']]);
    provider.snapMethods.set('l2_signMessage', () => '0x1,0x2');
    await wallet.request({
      type: 'wallet_signTypedData',
      params: { types: {}, primaryType: 'M', domain: {}, message: {} },
    });
    expect(provider.snapRequests().at(-1)?.params).toMatchObject({ signerAddress: '0xa1' });
    await expect(wallet.selectAccount(-1)).rejects.toThrow(InvalidParamsError);
    expect(createStarknetWindowObject(client, { accountIndex: 1 }).accountIndex).toBe(1);
  });

  it('wallet_requestChainId returns the current chain id', async () => {
    const { client } = fakeSnap();
    await expect(
      createStarknetWindowObject(client).request({ type: 'wallet_requestChainId' }),
    ).resolves.toBe(TESTNET_CHAIN_ID);
  });

  it('wallet_addInvokeTransaction maps wallet-API calls to snap calls on l2_executeTxn', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    provider.snapMethods.set('l2_executeTxn', () => ({ transaction_hash: '0xfeed' }));
    const wallet = createStarknetWindowObject(client);
    const result = await wallet.request({
      type: 'wallet_addInvokeTransaction',
      params: {
        calls: [
          { contract_address: '0x49d', entry_point: 'transfer', calldata: ['0x1', '5', '0'] },
        ],
      },
    });
    expect(result).toEqual({ transaction_hash: '0xfeed' });
    const execute = provider.snapRequests().find((r) => r.method === 'l2_executeTxn');
    expect(execute?.params).toEqual({
      address: '0xa0',
      calls: [{ contractAddress: '0x49d', entrypoint: 'transfer', calldata: ['0x1', '5', '0'] }],
      chainId: TESTNET_CHAIN_ID,
    });
  });

  it('wallet_addInvokeTransaction rejects a request without calls', async () => {
    const { client } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    const wallet = createStarknetWindowObject(client);
    await expect(
      wallet.request({ type: 'wallet_addInvokeTransaction', params: {} as never }),
    ).rejects.toThrow(InvalidParamsError);
  });

  it('wallet_addDeclareTransaction declares through l2_declareContract', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    provider.snapMethods.set('l2_declareContract', () => ({
      transaction_hash: '0x1',
      class_hash: '0x2',
    }));
    const wallet = createStarknetWindowObject(client);
    const result = await wallet.request({
      type: 'wallet_addDeclareTransaction',
      params: { compiled_class_hash: '0xc', contract_class: { sierra_program: [] } },
    });
    expect(result).toEqual({ transaction_hash: '0x1', class_hash: '0x2' });
    expect(provider.snapRequests().find((r) => r.method === 'l2_declareContract')?.params).toEqual({
      senderAddress: '0xa0',
      chainId: TESTNET_CHAIN_ID,
      contractPayload: { contract: { sierra_program: [] }, compiledClassHash: '0xc' },
    });
  });

  it('wallet_signTypedData signs with the first account and returns the signature as an array', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    provider.snapMethods.set('l2_signMessage', () => '0x11,0x22');
    const typedData = { types: { Mail: [] }, primaryType: 'Mail', domain: {}, message: {} };
    const wallet = createStarknetWindowObject(client);
    await expect(
      wallet.request({ type: 'wallet_signTypedData', params: typedData }),
    ).resolves.toEqual(['0x11', '0x22']);
    expect(provider.snapRequests().find((r) => r.method === 'l2_signMessage')?.params).toEqual({
      typedDataMessage: JSON.stringify(typedData),
      signerAddress: '0xa0',
      chainId: TESTNET_CHAIN_ID,
    });
  });

  it('wallet_watchAsset adds an ERC-20 token', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    provider.snapMethods.set('l2_addErc20Token', (p) => p);
    const wallet = createStarknetWindowObject(client);
    await expect(
      wallet.request({
        type: 'wallet_watchAsset',
        params: {
          type: 'ERC20',
          options: {
            address: '0x4718',
            symbol: 'STRK',
            decimals: 18,
            name: 'Starknet Token',
            image: 'https://example.com/strk.svg',
          },
        },
      }),
    ).resolves.toBe(true);
    expect(provider.snapRequests().find((r) => r.method === 'l2_addErc20Token')?.params).toEqual({
      address: '0xa0',
      chainId: TESTNET_CHAIN_ID,
      tokenAddress: '0x4718',
      tokenName: 'Starknet Token',
      tokenSymbol: 'STRK',
      tokenDecimals: 18,
      tokenLogo: 'https://example.com/strk.svg',
    });
  });

  it('wallet_watchAsset without a symbol is refused, naming options.symbol', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    const wallet = createStarknetWindowObject(client);
    const refused = wallet.request({
      type: 'wallet_watchAsset',
      params: { type: 'ERC20', options: { address: '0x4718' } },
    });
    await expect(refused).rejects.toThrow(InvalidParamsError);
    await expect(refused).rejects.toThrow(/options\.symbol/);
    expect(provider.snapRequests().map((r) => r.method)).not.toContain('l2_addErc20Token');
  });

  it('rejects an unknown request type', async () => {
    const wallet = createStarknetWindowObject(fakeSnap().client);
    await expect(wallet.request({ type: 'wallet_nope' } as never)).rejects.toThrow(
      /Unsupported wallet request type/,
    );
  });

  it('wallet_switchStarknetChain switches and emits networkChanged and accountsChanged', async () => {
    const { client } = fakeSnap({
      accounts: { [TESTNET_CHAIN_ID]: ['0xa0'], [MAINNET_CHAIN_ID]: ['0xb0'] },
    });
    const wallet = createStarknetWindowObject(client);
    const networkEvents: unknown[][] = [];
    const accountEvents: unknown[] = [];
    wallet.on('networkChanged', (chainId, accounts) => networkEvents.push([chainId, accounts]));
    wallet.on('accountsChanged', (accounts) => accountEvents.push(accounts));
    await wallet.request({ type: 'wallet_requestAccounts' });
    await expect(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: MAINNET_CHAIN_ID } }),
    ).resolves.toBe(true);
    expect(networkEvents).toEqual([[MAINNET_CHAIN_ID, ['0xb0']]]);
    expect(accountEvents).toEqual([['0xb0']]);
  });

  it('emits networkChanged for a switch made before the chain id was ever read', async () => {
    // The network reads are slow, so the read that on() starts has not finished at the switch.
    const { client } = fakeSnap({ networkDelayMs: 20 });
    const wallet = createStarknetWindowObject(client);
    const seen: unknown[] = [];
    wallet.on('networkChanged', (chainId) => seen.push(chainId));
    await expect(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: MAINNET_CHAIN_ID } }),
    ).resolves.toBe(true);
    expect(seen).toEqual([MAINNET_CHAIN_ID]);
  });

  it('a failed switch emits nothing, and off() removes a handler', async () => {
    const { client } = fakeSnap({
      accounts: { [TESTNET_CHAIN_ID]: ['0xa0'], [MAINNET_CHAIN_ID]: ['0xb0'] },
    });
    const wallet = createStarknetWindowObject(client);
    const seen: unknown[] = [];
    const handler = (chainId?: string) => seen.push(chainId);
    wallet.on('networkChanged', handler);
    await wallet.request({ type: 'wallet_requestChainId' });
    await expect(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: '0x1' } }),
    ).resolves.toBe(false);
    expect(seen).toEqual([]);
    wallet.off('networkChanged', handler);
    await wallet.request({
      type: 'wallet_switchStarknetChain',
      params: { chainId: MAINNET_CHAIN_ID },
    });
    expect(seen).toEqual([]);
  });

  it('polls for a network change made elsewhere while a listener is registered', async () => {
    const { client, state } = fakeSnap();
    const wallet = createStarknetWindowObject(client, { pollIntervalMs: 10 });
    const seen: unknown[] = [];
    const handler = (chainId?: string) => seen.push(chainId);
    wallet.on('networkChanged', handler);
    await wallet.request({ type: 'wallet_requestChainId' });
    state.chainId = MAINNET_CHAIN_ID; // switched by another dapp
    const deadline = Date.now() + 2000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    wallet.off('networkChanged', handler); // stops the poll timer
    expect(seen).toEqual([MAINNET_CHAIN_ID]);
  });

  it('never starts a poll while the previous one is in flight', async () => {
    // Reads take 30 ms, the interval is 2 ms: an interval timer would overlap many of them.
    const { client, state } = fakeSnap({ networkDelayMs: 30 });
    const wallet = createStarknetWindowObject(client, { pollIntervalMs: 2 });
    const handler = () => undefined;
    wallet.on('networkChanged', handler);
    await wallet.request({ type: 'wallet_requestChainId' });
    state.maxInFlight = 0;
    await new Promise((r) => setTimeout(r, 200));
    wallet.off('networkChanged', handler);
    expect(state.maxInFlight).toBe(1);
  });
});
