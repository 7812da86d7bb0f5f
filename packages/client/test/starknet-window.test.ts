import {
  MAINNET_CHAIN_ID,
  StarknetSnapClient,
  TESTNET_CHAIN_ID,
  createStarknetWindowObject,
  type AccountRecord,
} from '../src';
import { FakeProvider } from './fake-provider';
import { expectWalletError } from './helpers';

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
  const snapId = 'local:http://127.0.0.1:1';
  provider.walletMethods.set('wallet_getSnaps', () => ({
    [snapId]: { id: snapId, version: '0.1.0' },
  }));
  const client = new StarknetSnapClient({ provider, snapId });
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
    await expectWalletError(wallet.selectAccount(-1), 114, /addressIndex/);
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
      calls: [
        { contractAddress: '0x49d', entrypoint: 'transfer', calldata: ['0x1', '0x5', '0x0'] },
      ],
      chainId: TESTNET_CHAIN_ID,
    });
  });

  it('a request acting for the account reads the network once: account and chain from one read', async () => {
    const { client, provider } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    provider.snapMethods.set('l2_getDeploymentData', () => ({ address: '0xa0', deployed: false }));
    provider.snapMethods.set('l2_signMessage', () => '0x1,0x2');
    const wallet = createStarknetWindowObject(client);
    const typedData = {
      types: { StarknetDomain: [], Mail: [] },
      primaryType: 'Mail',
      domain: {},
      message: {},
    };
    await wallet.request({ type: 'wallet_deploymentData' });
    await wallet.request({ type: 'wallet_signTypedData', params: typedData });
    expect(provider.snapRequests().map((request) => request.method)).toEqual([
      'l2_getCurrentNetwork',
      'l2_createAccount',
      'l2_getDeploymentData',
      'l2_getCurrentNetwork',
      'l2_createAccount',
      'l2_signMessage',
    ]);
    expect(provider.snapRequests()[5].params).toMatchObject({
      signerAddress: '0xa0',
      chainId: TESTNET_CHAIN_ID,
    });
  });

  it('wallet_addInvokeTransaction rejects a request without calls', async () => {
    const { client } = fakeSnap({ accounts: { [TESTNET_CHAIN_ID]: ['0xa0'] } });
    const wallet = createStarknetWindowObject(client);
    await expectWalletError(
      wallet.request({ type: 'wallet_addInvokeTransaction', params: {} as never }),
      114,
      /calls/,
    );
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
      params: { compiled_class_hash: '0xc', contract_class: { sierra_program: [] } as never },
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
    await expectWalletError(refused, 114, /options\.symbol/);
    expect(provider.snapRequests().map((r) => r.method)).not.toContain('l2_addErc20Token');
  });

  it('rejects an unknown request type', async () => {
    const wallet = createStarknetWindowObject(fakeSnap().client);
    await expectWalletError(
      wallet.request({ type: 'wallet_nope' } as never),
      163,
      /does not implement "wallet_nope"/,
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
    await expectWalletError(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: '0x1' } }),
      112,
    );
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

describe('wallet API methods and error codes', () => {
  const ACCOUNTS = { [TESTNET_CHAIN_ID]: ['0xa0'], [MAINNET_CHAIN_ID]: ['0xb0'] };

  it('wallet_getPermissions is [] until wallet_requestAccounts, ["accounts"] after, [] after disconnect', async () => {
    const { client } = fakeSnap({ accounts: ACCOUNTS });
    const wallet = createStarknetWindowObject(client);
    await expect(wallet.request({ type: 'wallet_getPermissions' })).resolves.toEqual([]);
    await wallet.request({ type: 'wallet_requestAccounts' });
    await expect(wallet.request({ type: 'wallet_getPermissions' })).resolves.toEqual(['accounts']);
    wallet.disconnect();
    await expect(wallet.request({ type: 'wallet_getPermissions' })).resolves.toEqual([]);
  });

  it('silent_mode asks nothing and gives [] before a connect, the account after', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    const wallet = createStarknetWindowObject(client);
    const silent = { type: 'wallet_requestAccounts', params: { silent_mode: true } } as const;
    await expect(wallet.request(silent)).resolves.toEqual([]);
    expect(provider.requests).toEqual([]);
    await wallet.request({ type: 'wallet_requestAccounts' });
    await expect(wallet.request(silent)).resolves.toEqual(['0xa0']);
  });

  it('wallet_requestAccounts installs the snap first when the site has not got it', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    provider.walletMethods.set('wallet_getSnaps', () => ({}));
    provider.walletMethods.set('wallet_requestSnaps', (p) => ({
      [Object.keys(p as object)[0]]: { id: 'x', version: '0.1.0' },
    }));
    const wallet = createStarknetWindowObject(client);
    await expect(wallet.request({ type: 'wallet_requestAccounts' })).resolves.toEqual(['0xa0']);
    expect(provider.requests.map((r) => r.method).slice(0, 2)).toEqual([
      'wallet_getSnaps',
      'wallet_requestSnaps',
    ]);
  });

  it('wallet_deploymentData gives the data of an undeployed account and 115 for a deployed one', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    const data = { address: '0xa0', class_hash: '0xc1', salt: '0x5', calldata: ['0x5', '0x0'] };
    let deployed = false;
    provider.snapMethods.set('l2_getDeploymentData', () => ({ ...data, version: 1, deployed }));
    const wallet = createStarknetWindowObject(client);
    await expect(wallet.request({ type: 'wallet_deploymentData' })).resolves.toEqual({
      ...data,
      version: 1,
    });
    expect(provider.snapRequests().at(-1)).toEqual({
      method: 'l2_getDeploymentData',
      params: { address: '0xa0', chainId: TESTNET_CHAIN_ID },
    });
    deployed = true;
    await expectWalletError(wallet.request({ type: 'wallet_deploymentData' }), 115, /0xa0/);
  });

  it('api_version: supported versions pass, others are 162 before anything is sent', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    const wallet = createStarknetWindowObject(client);
    await expect(
      wallet.request({ type: 'wallet_requestChainId', params: { api_version: '0.7' } }),
    ).resolves.toBe(TESTNET_CHAIN_ID);
    await expect(
      wallet.request({ type: 'wallet_requestChainId', params: { api_version: '0.8.1' } }),
    ).resolves.toBe(TESTNET_CHAIN_ID);
    const sent = provider.requests.length;
    await expectWalletError(
      wallet.request({ type: 'wallet_requestAccounts', params: { api_version: '0.5' } }),
      162,
      /0\.5/,
    );
    provider.snapMethods.set('l2_signMessage', () => '0x1,0x2');
    await expectWalletError(
      wallet.request({
        type: 'wallet_signTypedData',
        params: { types: {}, primaryType: 'M', domain: {}, message: {}, api_version: '9.9' },
      }),
      162,
    );
    expect(provider.requests.length).toBe(sent);
    // A supported api_version is the envelope's, not part of the signed typed data.
    await wallet.request({
      type: 'wallet_signTypedData',
      params: { types: {}, primaryType: 'M', domain: {}, message: {}, api_version: '0.7' },
    });
    const signed = provider.snapRequests().at(-1)?.params as { typedDataMessage: string };
    expect(JSON.parse(signed.typedDataMessage)).not.toHaveProperty('api_version');
  });

  it('wallet_supportedSpecs and wallet_supportedWalletApi', async () => {
    const wallet = createStarknetWindowObject(fakeSnap().client);
    await expect(wallet.request({ type: 'wallet_supportedSpecs' })).resolves.toEqual([
      '0.9',
      '0.10',
    ]);
    await expect(wallet.request({ type: 'wallet_supportedWalletApi' })).resolves.toEqual([
      '0.7',
      '0.8',
      '0.10',
    ]);
  });

  it('wallet API 0.10: api_version 0.10.x is answered; the STRK20 requests are 118, nothing sent', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    const wallet = createStarknetWindowObject(client);
    await expect(
      wallet.request({ type: 'wallet_requestChainId', params: { api_version: '0.10.4' } }),
    ).resolves.toBe(TESTNET_CHAIN_ID);
    await expectWalletError(
      wallet.request({ type: 'wallet_requestChainId', params: { api_version: '0.11' } }),
      162,
    );
    const sent = provider.requests.length;
    const requests = [
      { type: 'wallet_strk20Balances', params: { tokens: [] } },
      { type: 'wallet_strk20PrepareInvoke', params: { actions: [], simulate: true } },
      { type: 'wallet_strk20InvokeTransaction', params: { actions: [] } },
      { type: 'wallet_strk20ShadowAccountCommitment', params: { dapp_name: 'dapp' } },
    ] as const;
    for (const request of requests) {
      await expectWalletError(wallet.request(request as never), 118, /STRK20.*not public/);
    }
    // A SNIP-36 proof is never dropped silently: the invoke is refused, nothing sent.
    await expectWalletError(
      wallet.request({
        type: 'wallet_addInvokeTransaction',
        params: {
          calls: [{ contract_address: '0x1', entry_point: 'f', calldata: [] }],
          proof: { data: [], proof_facts: [] } as never,
        },
      }),
      163,
      /SNIP-36 proofs/,
    );
    expect(provider.requests.length).toBe(sent);
  });

  it('wallet_addStarknetChain: true for a listed chain, 114 naming chain_id otherwise', async () => {
    const wallet = createStarknetWindowObject(fakeSnap().client);
    const chain = { id: 'sepolia', chain_name: 'Sepolia' };
    await expect(
      wallet.request({
        type: 'wallet_addStarknetChain',
        params: { ...chain, chain_id: 'SN_SEPOLIA' as never },
      }),
    ).resolves.toBe(true);
    await expect(
      wallet.request({
        type: 'wallet_addStarknetChain',
        params: { ...chain, chain_id: MAINNET_CHAIN_ID as never },
      }),
    ).resolves.toBe(true);
    await expectWalletError(
      wallet.request({
        type: 'wallet_addStarknetChain',
        params: { ...chain, chain_id: '0x1234' as never },
      }),
      114,
      /chain_id/,
    );
  });

  it('wallet_switchStarknetChain: short names are accepted, a declined switch is 113', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    const wallet = createStarknetWindowObject(client);
    await expect(
      wallet.request({
        type: 'wallet_switchStarknetChain',
        params: { chainId: 'SN_MAIN' as never },
      }),
    ).resolves.toBe(true);
    provider.snapMethods.set('l2_switchNetwork', () => false); // the user declined the dialog
    await expectWalletError(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: TESTNET_CHAIN_ID } }),
      113,
    );
  });

  it('calldata as hex and decimal strings, numbers and bigints; a bad felt is 114 naming it, nothing sent', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    provider.snapMethods.set('l2_executeTxn', () => ({ transaction_hash: '0x1' }));
    const wallet = createStarknetWindowObject(client);
    await wallet.request({
      type: 'wallet_addInvokeTransaction',
      params: {
        calls: [
          {
            contract_address: '0x49D',
            entry_point: 'transfer',
            calldata: ['0x10', '16', 16, 16n] as never,
          },
        ],
      },
    });
    const execute = provider.snapRequests().find((r) => r.method === 'l2_executeTxn');
    expect((execute?.params as { calls: unknown[] }).calls).toEqual([
      {
        contractAddress: '0x49d',
        entrypoint: 'transfer',
        calldata: ['0x10', '0x10', '0x10', '0x10'],
      },
    ]);
    const before = provider.snapRequests().length;
    for (const bad of ['-1', 1.5, '0xzz', 2n ** 252n, null]) {
      await expectWalletError(
        wallet.request({
          type: 'wallet_addInvokeTransaction',
          params: {
            calls: [{ contract_address: '0x1', entry_point: 'f', calldata: ['0x1', bad] as never }],
          },
        }),
        114,
        /calls\[0\]\.calldata\[1\]/,
      );
    }
    await expectWalletError(
      wallet.request({
        type: 'wallet_addInvokeTransaction',
        params: { calls: [{ contract_address: '0x1', entry_point: '' }] },
      }),
      114,
      /calls\[0\]\.entry_point/,
    );
    expect(provider.snapRequests().length).toBe(before);
  });

  it('maps the snap errors: declined (4001) -> 113, refused params (-32602) -> 114, others -> 163', async () => {
    const { client, provider } = fakeSnap({ accounts: ACCOUNTS });
    const wallet = createStarknetWindowObject(client);
    const sign = () =>
      wallet.request({
        type: 'wallet_signTypedData',
        params: { types: {}, primaryType: 'M', domain: {}, message: {} },
      });
    provider.snapMethods.set('l2_signMessage', () => {
      throw { code: 4001, message: 'User rejected the request.' };
    });
    await expectWalletError(sign(), 113);
    provider.snapMethods.set('l2_signMessage', () => {
      throw { code: -32602, message: 'Invalid params: "typedDataMessage.domain.chainId" ...' };
    });
    await expectWalletError(sign(), 114, /domain\.chainId/);
    provider.snapMethods.set('l2_signMessage', () => {
      throw { code: -32603, message: 'Internal error' };
    });
    await expectWalletError(sign(), 163, /Internal error/);
    await expectWalletError(
      wallet.request({ type: 'wallet_signTypedData', params: { types: {} } as never }),
      114,
      /domain/,
    );
  });
});
