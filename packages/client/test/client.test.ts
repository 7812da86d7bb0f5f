import {
  InvalidParamsError,
  SnapError,
  SnapsNotSupportedError,
  StarknetSnapClient,
  TESTNET_CHAIN_ID,
  UserRejectedError,
  toSnapError,
} from '../src';
import { FakeProvider } from './fake-provider';

const SNAP_ID = 'local:http://127.0.0.1:8080';

function setup() {
  const provider = new FakeProvider();
  const client = new StarknetSnapClient({ provider, snapId: SNAP_ID, version: '^0.1.0' });
  return { provider, client };
}

describe('Snaps support detection', () => {
  it('reports support and lists installed snaps', async () => {
    const { provider, client } = setup();
    provider.walletMethods.set('wallet_getSnaps', () => ({
      [SNAP_ID]: { id: SNAP_ID, version: '0.1.0', enabled: true, blocked: false },
    }));
    expect(await client.isSnapsSupported()).toBe(true);
    expect(await client.getInstalledSnap()).toMatchObject({ id: SNAP_ID, version: '0.1.0' });
  });

  it('returns null for the snap when another snap is installed', async () => {
    const { provider, client } = setup();
    provider.walletMethods.set('wallet_getSnaps', () => ({
      'npm:other': { id: 'npm:other', version: '1.0.0' },
    }));
    expect(await client.getInstalledSnap()).toBeNull();
  });

  it('says plainly when the wallet cannot run snaps', async () => {
    const { client } = setup(); // no wallet_getSnaps: the fake answers -32601
    expect(await client.isSnapsSupported()).toBe(false);
    await expect(client.getSnaps()).rejects.toThrow(SnapsNotSupportedError);
    await expect(client.getSnaps()).rejects.toThrow(/cannot run snaps.*MetaMask Flask/);
  });

  it('treats 4200 (unsupported method) as no Snaps API too', async () => {
    const { provider, client } = setup();
    provider.walletMethods.set('wallet_getSnaps', () => {
      throw { code: 4200, message: 'The requested method is not supported' };
    });
    await expect(client.getSnaps()).rejects.toThrow(SnapsNotSupportedError);
    expect(await client.isSnapsSupported()).toBe(false);
  });

  it('reports any other wallet_getSnaps failure as it is, not as "no snaps"', async () => {
    const { provider, client } = setup();
    provider.walletMethods.set('wallet_getSnaps', () => {
      throw { code: 4900, message: 'Disconnected' };
    });
    const failure = client.getSnaps();
    await expect(failure).rejects.toThrow(SnapError);
    await expect(failure).rejects.not.toThrow(SnapsNotSupportedError);
    await expect(failure).rejects.toMatchObject({ code: 4900, message: 'Disconnected' });
    await expect(client.isSnapsSupported()).rejects.toMatchObject({ code: 4900 });

    provider.walletMethods.set('wallet_getSnaps', () => {
      throw { code: 4001, message: 'User rejected the request.' };
    });
    await expect(client.getSnaps()).rejects.toThrow(UserRejectedError);
  });
});

describe('connect', () => {
  it('requests the snap at the given id and version', async () => {
    const { provider, client } = setup();
    provider.walletMethods.set('wallet_requestSnaps', (params) => {
      const [[id, { version }]] = Object.entries(params as Record<string, { version: string }>);
      return { [id]: { id, version: version === '^0.1.0' ? '0.1.3' : 'wrong', enabled: true } };
    });
    const installed = await client.connect();
    expect(installed).toEqual({ id: SNAP_ID, version: '0.1.3', enabled: true });
    expect(provider.requests).toEqual([
      { method: 'wallet_requestSnaps', params: { [SNAP_ID]: { version: '^0.1.0' } } },
    ]);
  });

  it('turns a declined install into UserRejectedError', async () => {
    const { provider, client } = setup();
    provider.walletMethods.set('wallet_requestSnaps', () => {
      throw { code: 4001, message: 'User rejected the request.' };
    });
    await expect(client.connect()).rejects.toThrow(UserRejectedError);
  });

  it('reports a per-snap install error', async () => {
    const { provider, client } = setup();
    provider.walletMethods.set('wallet_requestSnaps', () => ({
      [SNAP_ID]: { error: { code: -32603, message: 'Failed to fetch snap' } },
    }));
    await expect(client.connect()).rejects.toThrow('Failed to fetch snap');
  });
});

describe('typed calls', () => {
  const address = '0x0123';
  const signedDetails = {
    nonce: '0x1',
    resourceBounds: {
      l1_gas: { max_amount: '0x0', max_price_per_unit: '0x1' },
      l2_gas: { max_amount: 100, max_price_per_unit: '1000' },
    },
  };
  const declareDetails = { ...signedDetails, classHash: '0x5', compiledClassHash: '0x6' };
  const cases: Array<[string, (c: StarknetSnapClient) => Promise<unknown>, string, unknown]> = [
    [
      'createAccount',
      (c) => c.createAccount({ addressIndex: 2, deploy: false }),
      'l2_createAccount',
      { addressIndex: 2, deploy: false },
    ],
    ['createAccount without params', (c) => c.createAccount(), 'l2_createAccount', undefined],
    [
      'declareContract',
      (c) => c.declareContract({ senderAddress: address, contractPayload: { contract: 'abc' } }),
      'l2_declareContract',
      { senderAddress: address, contractPayload: { contract: 'abc' } },
    ],
    [
      'displayPrivateKey',
      (c) => c.displayPrivateKey({ userAddress: address }),
      'l2_displayPrivateKey',
      { userAddress: address },
    ],
    [
      'estimateAccountDeployFee',
      (c) => c.estimateAccountDeployFee({ addressIndex: 0 }),
      'l2_estimateAccountDeployFee',
      { addressIndex: 0 },
    ],
    [
      'estimateFee',
      (c) =>
        c.estimateFee({
          address,
          invocations: [{ contractAddress: '0x1', entrypoint: 'transfer', calldata: ['1'] }],
        }),
      'l2_estimateFee',
      {
        address,
        invocations: [{ contractAddress: '0x1', entrypoint: 'transfer', calldata: ['1'] }],
      },
    ],
    [
      'executeTxn',
      (c) =>
        c.executeTxn({
          address,
          calls: [{ contractAddress: '0x1', entrypoint: 'x' }],
          chainId: TESTNET_CHAIN_ID,
        }),
      'l2_executeTxn',
      { address, calls: [{ contractAddress: '0x1', entrypoint: 'x' }], chainId: TESTNET_CHAIN_ID },
    ],
    [
      'extractPublicKey',
      (c) => c.extractPublicKey({ userAddress: address }),
      'l2_extractPublicKey',
      { userAddress: address },
    ],
    ['getCurrentNetwork', (c) => c.getCurrentNetwork(), 'l2_getCurrentNetwork', undefined],
    [
      'getErc20TokenBalance',
      (c) => c.getErc20TokenBalance({ tokenAddress: '0x2', userAddress: address }),
      'l2_getErc20TokenBalance',
      { tokenAddress: '0x2', userAddress: address },
    ],
    [
      'addErc20Token',
      (c) =>
        c.addErc20Token({
          address,
          chainId: TESTNET_CHAIN_ID,
          tokenAddress: '0x2',
          tokenName: 'Stark',
          tokenSymbol: 'STRK',
          tokenDecimals: 18,
        }),
      'l2_addErc20Token',
      {
        address,
        chainId: TESTNET_CHAIN_ID,
        tokenAddress: '0x2',
        tokenName: 'Stark',
        tokenSymbol: 'STRK',
        tokenDecimals: 18,
      },
    ],
    [
      'getTransactions',
      (c) => c.getTransactions({ senderAddress: address, pageSize: 25 }),
      'l2_getTransactions',
      { senderAddress: address, pageSize: 25 },
    ],
    [
      'getTransactionStatus',
      (c) => c.getTransactionStatus({ transactionHash: '0xab' }),
      'l2_getTransactionStatus',
      { transactionHash: '0xab' },
    ],
    [
      'recoverAccounts',
      (c) => c.recoverAccounts({ maxScanned: 3 }),
      'l2_recoverAccounts',
      { maxScanned: 3 },
    ],
    [
      'signDeclareTransaction',
      (c) =>
        c.signDeclareTransaction({
          address,
          chainId: TESTNET_CHAIN_ID,
          senderAddress: address,
          details: { ...declareDetails, senderAddress: address, chainId: TESTNET_CHAIN_ID },
        }),
      'l2_signDeclareTransaction',
      {
        address,
        chainId: TESTNET_CHAIN_ID,
        senderAddress: address,
        details: { ...declareDetails, senderAddress: address, chainId: TESTNET_CHAIN_ID },
      },
    ],
    [
      'signTransaction',
      (c) =>
        c.signTransaction({
          address,
          chainId: TESTNET_CHAIN_ID,
          transactions: [{ contractAddress: '0x1', entrypoint: 'x', calldata: [] }],
          transactionsDetail: signedDetails,
        }),
      'l2_signTransaction',
      {
        address,
        chainId: TESTNET_CHAIN_ID,
        transactions: [{ contractAddress: '0x1', entrypoint: 'x', calldata: [] }],
        transactionsDetail: signedDetails,
      },
    ],
    [
      'switchNetwork',
      (c) => c.switchNetwork({ chainId: TESTNET_CHAIN_ID }),
      'l2_switchNetwork',
      { chainId: TESTNET_CHAIN_ID },
    ],
  ];

  it.each(cases)(
    '%s sends wallet_invokeSnap with the method and params and returns its result',
    async (_name, call, method, params) => {
      const { provider, client } = setup();
      const result = { answeredBy: method };
      provider.snapMethods.set(method, () => result);
      await expect(call(client)).resolves.toBe(result);
      const expectedRequest = params === undefined ? { method } : { method, params };
      expect(provider.requests).toEqual([
        { method: 'wallet_invokeSnap', params: { snapId: SNAP_ID, request: expectedRequest } },
      ]);
    },
  );

  const typedData = {
    types: {
      StarkNetDomain: [{ name: 'name', type: 'felt' }],
      Mail: [{ name: 'contents', type: 'felt' }],
    },
    primaryType: 'Mail',
    domain: { name: 'Example' },
    message: { contents: 'hello' },
  };

  it('signMessage sends typed data as its JSON string', async () => {
    const { provider, client } = setup();
    provider.snapMethods.set('l2_signMessage', () => ['0x1', '0x2']);
    await expect(
      client.signMessage({ typedDataMessage: typedData, signerAddress: address }),
    ).resolves.toEqual(['0x1', '0x2']);
    expect(provider.snapRequests()[0].params).toEqual({
      typedDataMessage: JSON.stringify(typedData),
      signerAddress: address,
    });
  });

  it('verifySignedMessage sends JSON typed data and a comma-separated signature', async () => {
    const { provider, client } = setup();
    provider.snapMethods.set(
      'l2_verifySignedMessage',
      (p) => (p as { signature: string }).signature === '0x1,0x2',
    );
    await expect(
      client.verifySignedMessage({
        typedDataMessage: typedData,
        address,
        signature: ['0x1', '0x2'],
      }),
    ).resolves.toBe(true);
    expect(provider.snapRequests()[0].params).toEqual({
      typedDataMessage: JSON.stringify(typedData),
      address,
      signature: '0x1,0x2',
    });
  });
});

describe('typed errors', () => {
  it('maps 4001 to UserRejectedError', async () => {
    const { provider, client } = setup();
    provider.snapMethods.set('l2_signMessage', () => {
      throw { code: 4001, message: 'User rejected the request.' };
    });
    const error = await client
      .signMessage({ typedDataMessage: '{}', signerAddress: '0x1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserRejectedError);
    expect(error).toBeInstanceOf(SnapError);
    expect((error as UserRejectedError).code).toBe(4001);
  });

  it('maps -32602 to InvalidParamsError keeping the field named in the message', async () => {
    const { provider, client } = setup();
    provider.snapMethods.set('l2_switchNetwork', () => {
      throw {
        code: -32602,
        message: 'Invalid params: chainId must be a hex string',
        data: { field: 'chainId' },
      };
    });
    const error = await client.switchNetwork({ chainId: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).message).toBe(
      'Invalid params: chainId must be a hex string',
    );
    expect((error as InvalidParamsError).data).toEqual({ field: 'chainId' });
  });

  it('maps any other code to SnapError with the code', async () => {
    const { provider, client } = setup();
    provider.snapMethods.set('l2_getCurrentNetwork', () => {
      throw { code: -32603, message: 'Internal error' };
    });
    const error = await client.getCurrentNetwork().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapError);
    expect(error).not.toBeInstanceOf(UserRejectedError);
    expect(error).not.toBeInstanceOf(InvalidParamsError);
    expect((error as SnapError).code).toBe(-32603);
  });

  it('unwraps a snap error that the wallet wrapped in data.originalError or data.cause', () => {
    expect(
      toSnapError({
        code: -32603,
        message: 'wrapped',
        data: { originalError: { code: 4001, message: 'declined' } },
      }),
    ).toBeInstanceOf(UserRejectedError);
    const inner = toSnapError({
      code: -32603,
      message: 'wrapped',
      data: { cause: { code: -32602, message: 'bad field x' } },
    });
    expect(inner).toBeInstanceOf(InvalidParamsError);
    expect(inner.message).toBe('bad field x');
  });

  it('wraps thrown strings and Error objects', () => {
    expect(toSnapError('boom').message).toBe('boom');
    const fromError = toSnapError(new Error('network down'));
    expect(fromError).toBeInstanceOf(SnapError);
    expect(fromError.message).toBe('network down');
    expect(fromError.code).toBeUndefined();
  });
});
