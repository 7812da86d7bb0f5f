import { type as object, validate, type Struct } from 'superstruct';
import { StarknetSnapClient, type SnapMethodName } from '@l2wallet/client';
import { STARKNET_MAINNET, STARKNET_TESTNET } from '@l2wallet/testkit';
import {
  buildParams,
  refillDefaults,
  type DefaultsContext,
  type MethodSpec,
} from '../src/utils/methodForm';
import { METHODS } from '../src/utils/methods';

// The snap's own structs for transaction details (the source of truth for what it accepts).
// Required rather than imported: the snap's sources are type-checked by the snap's own project.
type AnyStruct = Struct<unknown, unknown>;
const { FeltStruct } = require('@l2wallet/snap/src/starknet/structs') as { FeltStruct: AnyStruct };
const { V3DetailsFields, V3DetailsStruct } = require('@l2wallet/snap/src/starknet/details') as {
  V3DetailsFields: Record<string, AnyStruct>;
  V3DetailsStruct: AnyStruct;
};
// The snap's typed-data chain binding: the check l2_signMessage runs before any dialog.
const { requireChainBinding } = require('@l2wallet/snap/src/starknet/typedData/check') as {
  requireChainBinding: (data: unknown, chainId: string) => void;
};

const ctx: DefaultsContext = {
  address: '0x0abc',
  nextIndex: 2,
  chainId: STARKNET_TESTNET,
  lastSignature: '0x1,0x2',
  lastTxHash: '0xfeed',
};

const spec = (method: string) => METHODS.find((m) => m.method === method) as MethodSpec;

describe('method cards', () => {
  it('has exactly one card per snap method', () => {
    const all: SnapMethodName[] = [
      'l2_createAccount',
      'l2_declareContract',
      'l2_displayPrivateKey',
      'l2_estimateAccountDeployFee',
      'l2_estimateFee',
      'l2_executeTxn',
      'l2_extractPublicKey',
      'l2_getCurrentNetwork',
      'l2_getErc20TokenBalance',
      'l2_addErc20Token',
      'l2_getTransactions',
      'l2_getTransactionStatus',
      'l2_recoverAccounts',
      'l2_signDeclareTransaction',
      'l2_signMessage',
      'l2_signTransaction',
      'l2_switchNetwork',
      'l2_verifySignedMessage',
    ];
    expect(METHODS.map((m) => m.method).sort()).toEqual([...all].sort());
  });

  it.each(METHODS.map((m) => [m.method, m] as const))(
    '%s: the defaults build valid params and the card calls that method through the client',
    async (method, card) => {
      const params = buildParams(card, card.defaults(ctx));
      const sent: Array<{ method: string; params?: unknown }> = [];
      const client = new StarknetSnapClient({
        snapId: 'local:http://127.0.0.1:1',
        provider: {
          request: async ({ params: envelope }) => {
            sent.push((envelope as { request: { method: string; params?: unknown } }).request);
            return null;
          },
        },
      });
      await card.call(client, params ?? {});
      expect(sent).toHaveLength(1);
      expect(sent[0].method).toBe(method);
    },
  );

  it('pre-fills from the selected account, network, last signature and last transaction', () => {
    expect(spec('l2_signMessage').defaults(ctx)).toMatchObject({
      signerAddress: '0x0abc',
      chainId: ctx.chainId,
    });
    expect(spec('l2_verifySignedMessage').defaults(ctx).signature).toBe('0x1,0x2');
    expect(spec('l2_getTransactionStatus').defaults(ctx).transactionHash).toBe('0xfeed');
    expect(spec('l2_createAccount').defaults(ctx).addressIndex).toBe('2');
    expect(spec('l2_switchNetwork').defaults(ctx).chainId).toBe(STARKNET_MAINNET);
  });
});

describe("pre-filled transaction details pass the snap's structs", () => {
  const real = { ...ctx, address: '0x' + '1'.repeat(63) };
  const check = <T, S>(struct: Struct<T, S>, value: unknown) => {
    const [error] = validate(value, struct, { coerce: true });
    expect(error?.message).toBeUndefined();
  };

  it('l2_signTransaction transactionsDetail', () => {
    const params = buildParams(
      spec('l2_signTransaction'),
      spec('l2_signTransaction').defaults(real),
    );
    check(V3DetailsStruct, params?.transactionsDetail);
  });

  it('l2_signDeclareTransaction details', () => {
    const card = spec('l2_signDeclareTransaction');
    const params = buildParams(card, card.defaults(real));
    check(
      object({ ...V3DetailsFields, classHash: FeltStruct, compiledClassHash: FeltStruct }),
      params?.details,
    );
  });

  it('l2_declareContract contractPayload is a Sierra class with a compiled class hash', () => {
    const card = spec('l2_declareContract');
    const payload = buildParams(card, card.defaults(real))?.contractPayload as {
      contract: { sierra_program: string[] };
      compiledClassHash: string;
    };
    expect(payload.contract.sierra_program.length).toBeGreaterThan(10);
    check(FeltStruct, payload.compiledClassHash);
  });

  it.each([
    ['Testnet', STARKNET_TESTNET, STARKNET_MAINNET],
    ['Mainnet', STARKNET_MAINNET, STARKNET_TESTNET],
  ])(
    'the typed data of l2_signMessage / l2_verifySignedMessage is bound to the current network (%s)',
    (_name, current, other) => {
      for (const method of ['l2_signMessage', 'l2_verifySignedMessage']) {
        const card = spec(method);
        const params = buildParams(card, card.defaults({ ...real, chainId: current }));
        const typedData = params?.typedDataMessage;
        expect(typedData).toMatchObject({ domain: { name: 'Starknet Mail' } });
        expect(() => requireChainBinding(typedData, current)).not.toThrow();
        // The same typed data on the other network is refused: the check is not vacuous.
        expect(() => requireChainBinding(typedData, other)).toThrow(/domain\.chainId/);
      }
    },
  );

  it('the old defaults are refused (the check is not vacuous)', () => {
    const [error] = validate({ nonce: '0x0', version: '0x3' }, V3DetailsStruct, { coerce: true });
    expect(error?.message).toMatch(/resourceBounds/);
  });
});

describe('buildParams', () => {
  const card = spec('l2_getTransactions');

  it('converts numbers, booleans and JSON and leaves out empty optional fields', () => {
    expect(
      buildParams(card, {
        senderAddress: '0x1',
        contractAddress: '',
        pageSize: '25',
        withDeployTxn: 'true',
        onlyFromState: 'false',
        chainId: '',
      }),
    ).toEqual({ senderAddress: '0x1', pageSize: 25, withDeployTxn: true, onlyFromState: false });
    expect(
      buildParams(spec('l2_executeTxn'), { address: '0x1', calls: '[{"a":1}]', chainId: '0x2' }),
    ).toEqual({
      address: '0x1',
      calls: [{ a: 1 }],
      chainId: '0x2',
    });
  });

  it('names the field that is missing or malformed', () => {
    expect(() => buildParams(card, {})).toThrow('senderAddress is required');
    expect(() => buildParams(card, { senderAddress: '0x1', pageSize: 'ten' })).toThrow(
      'pageSize must be an integer',
    );
    expect(() =>
      buildParams(spec('l2_executeTxn'), { address: '0x1', calls: '[', chainId: '0x2' }),
    ).toThrow('calls is not valid JSON');
  });

  it('sends no params for a method without any', () => {
    expect(buildParams(spec('l2_getCurrentNetwork'), {})).toBeUndefined();
  });
});

describe('refillDefaults', () => {
  it('keeps the text of fields the user edited and refills the others', () => {
    const card = spec('l2_getTransactionStatus');
    const typed = { ...card.defaults(ctx), transactionHash: '0xmine' };
    const next = card.defaults({ ...ctx, chainId: STARKNET_MAINNET, lastTxHash: '0xnew' });
    expect(refillDefaults(typed, next, new Set(['transactionHash']))).toEqual({
      transactionHash: '0xmine',
      chainId: STARKNET_MAINNET,
    });
    expect(refillDefaults(typed, next, new Set())).toEqual(next);
  });
});
