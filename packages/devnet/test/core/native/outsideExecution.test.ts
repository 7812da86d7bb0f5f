import * as scure from '@scure/starknet';
import {
  Call,
  CallData,
  constants,
  OutsideExecutionTypesV1,
  OutsideExecutionTypesV2,
  outsideExecution as snOutsideExecution,
  OutsideExecutionVersion,
  Signer,
  stark,
  typedData,
  TypedDataRevision,
} from 'starknet';
import { CalldataReader } from '../../../src/core/calldata';
import { ClassStore } from '../../../src/core/classes';
import { CallContext, Execution } from '../../../src/core/execution';
import { StateOverlay, VersionedState } from '../../../src/core/state';
import { encodeShortString, selectorFromName, toHex } from '../../../src/core/felt';
import { verifyStarkSignature } from '../../../src/core/signature';
import {
  ANY_CALLER,
  checkOutsideExecution,
  OutsideExecution,
  outsideExecutionHashV1,
  outsideExecutionHashV2,
  readOutsideExecution,
  SNIP9_V1_INTERFACE_ID,
  SNIP9_V2_INTERFACE_ID,
  V1_TYPE_HASHES,
  V2_TYPE_HASHES,
} from '../../../src/core/native/outsideExecution';

// The devnet's SNIP-9 hashing against starknet.js (its outsideExecution helpers and SNIP-12
// typedData) and against a second implementation written here from @scure/starknet primitives.

const SEPOLIA = constants.StarknetChainId.SN_SEPOLIA;
const account = '0x3b278ebae434f283f9340587a7f2dd4282658ac8e03cb9b0956db23a0a83657';

const sampleCalls: Call[][] = [
  [
    {
      contractAddress: '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
      entrypoint: 'transfer',
      calldata: ['0x123', '1000', '0'],
    },
  ],
  [
    { contractAddress: '0x678', entrypoint: 'approve', calldata: [] },
    { contractAddress: '0x9abc', entrypoint: 'swap', calldata: ['0x1', stark.randomAddress()] },
  ],
  [],
];

const callers = ['0x64b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691', 'ANY_CALLER'];

function cases(): {
  options: { caller: string; execute_after: number; execute_before: number };
  nonce: string;
  calls: Call[];
  chainId: string;
}[] {
  const out = [];
  for (const calls of sampleCalls) {
    for (const caller of callers) {
      for (const chainId of [SEPOLIA, constants.StarknetChainId.SN_MAIN]) {
        out.push({
          options: {
            caller: caller === 'ANY_CALLER' ? constants.OutsideExecutionCallerAny : caller,
            execute_after: 1_700_000_000,
            execute_before: 1_800_000_000,
          },
          nonce: stark.randomAddress(),
          calls,
          chainId,
        });
      }
    }
  }
  return out;
}

function asExecution(c: ReturnType<typeof cases>[number]): OutsideExecution {
  return {
    caller: BigInt(c.options.caller),
    nonce: BigInt(c.nonce),
    executeAfter: BigInt(c.options.execute_after),
    executeBefore: BigInt(c.options.execute_before),
    calls: c.calls.map((call) => {
      const outside = snOutsideExecution.getOutsideCall(call);
      return {
        to: BigInt(outside.to),
        selector: BigInt(outside.selector),
        calldata: (outside.calldata as string[]).map(BigInt),
      };
    }),
  };
}

/** SNIP-12 revision 0 from @scure's Pedersen and keccak, straight from the SNIP text. */
function scureHashV1(e: OutsideExecution, chainId: bigint, address: bigint): bigint {
  const h = (values: bigint[]): bigint => BigInt(scure.computeHashOnElements(values) as string);
  const typeHash = (s: string) => scure.keccak(new TextEncoder().encode(s));
  const call = typeHash('OutsideCall(to:felt,selector:felt,calldata_len:felt,calldata:felt*)');
  const struct = h([
    typeHash(
      'OutsideExecution(caller:felt,nonce:felt,execute_after:felt,execute_before:felt,calls_len:felt,calls:OutsideCall*)OutsideCall(to:felt,selector:felt,calldata_len:felt,calldata:felt*)',
    ),
    e.caller,
    e.nonce,
    e.executeAfter,
    e.executeBefore,
    BigInt(e.calls.length),
    h(e.calls.map((c) => h([call, c.to, c.selector, BigInt(c.calldata.length), h(c.calldata)]))),
  ]);
  const domain = h([
    typeHash('StarkNetDomain(name:felt,version:felt,chainId:felt)'),
    encodeShortString('Account.execute_from_outside'),
    1n,
    chainId,
  ]);
  return h([encodeShortString('StarkNet Message'), domain, address, struct]);
}

/** SNIP-12 revision 1 from @scure's Poseidon. */
function scureHashV2(e: OutsideExecution, chainId: bigint, address: bigint): bigint {
  const p = (values: bigint[]) => scure.poseidonHashMany(values);
  const callType = 0x3635c7f2a7ba93844c0d064e18e487f35ab90f7c39d00f186a781fc3f0c2ca9n;
  const struct = p([
    0x312b56c05a7965066ddbda31c016d8d05afc305071c0ca3cdc2192c3c2f1f0fn,
    e.caller,
    e.nonce,
    e.executeAfter,
    e.executeBefore,
    p(e.calls.map((c) => p([callType, c.to, c.selector, p(c.calldata)]))),
  ]);
  const domain = p([
    0x1ff2f602e42168014d405a94f75e8a93d640751d71d16311266e140d8b0a210n,
    encodeShortString('Account.execute_from_outside'),
    2n,
    chainId,
    1n,
  ]);
  return p([encodeShortString('StarkNet Message'), domain, address, struct]);
}

describe('SNIP-9 outside execution hashing', () => {
  test('type hashes are the ones SNIP-9 publishes and starknet.js derives', () => {
    expect(toHex(V1_TYPE_HASHES.outsideExecution)).toBe(
      '0x11ff76fe3f640fa6f3d60bbd94a3b9d47141a2c96f87fdcfbeb2af1d03f7050',
    );
    expect(toHex(V1_TYPE_HASHES.call)).toBe(
      '0xf00de1fccbb286f9a020ba8821ee936b1deea42a5c485c11ccdc82c8bebb3a',
    );
    expect(toHex(V2_TYPE_HASHES.outsideExecution)).toBe(
      '0x312b56c05a7965066ddbda31c016d8d05afc305071c0ca3cdc2192c3c2f1f0f',
    );
    expect(toHex(V2_TYPE_HASHES.call)).toBe(
      '0x3635c7f2a7ba93844c0d064e18e487f35ab90f7c39d00f186a781fc3f0c2ca9',
    );
    const v1 = (type: string) =>
      typedData.getTypeHash(OutsideExecutionTypesV1, type, TypedDataRevision.LEGACY);
    const v2 = (type: string) =>
      typedData.getTypeHash(OutsideExecutionTypesV2, type, TypedDataRevision.ACTIVE);
    expect(toHex(V1_TYPE_HASHES.outsideExecution)).toBe(v1('OutsideExecution'));
    expect(toHex(V1_TYPE_HASHES.call)).toBe(v1('OutsideCall'));
    expect(toHex(V1_TYPE_HASHES.domain)).toBe(v1('StarkNetDomain'));
    expect(toHex(V2_TYPE_HASHES.outsideExecution)).toBe(v2('OutsideExecution'));
    expect(toHex(V2_TYPE_HASHES.call)).toBe(v2('Call'));
    expect(toHex(V2_TYPE_HASHES.domain)).toBe(v2('StarknetDomain'));
  });

  test('ANY_CALLER and the interface ids are the ones starknet.js uses', () => {
    expect(toHex(ANY_CALLER)).toBe(constants.OutsideExecutionCallerAny);
    expect(toHex(SNIP9_V1_INTERFACE_ID)).toBe(constants.SNIP9_V1_INTERFACE_ID);
    expect(toHex(SNIP9_V2_INTERFACE_ID)).toBe(constants.SNIP9_V2_INTERFACE_ID);
  });

  const versions = [
    { version: OutsideExecutionVersion.V1, ours: outsideExecutionHashV1, scure: scureHashV1 },
    { version: OutsideExecutionVersion.V2, ours: outsideExecutionHashV2, scure: scureHashV2 },
  ];
  const hashCases = versions.flatMap((v) => cases().map((c) => ({ ...v, c })));

  test.each(hashCases)(
    'version $version message hash matches starknet.js and @scure (%#)',
    ({ version, ours, scure: independent, c }) => {
      const e = asExecution(c);
      const hash = ours(e, BigInt(c.chainId), BigInt(account));
      const data = snOutsideExecution.getTypedData(c.chainId, c.options, c.nonce, c.calls, version);
      expect(toHex(hash)).toBe(typedData.getMessageHash(data, account));
      expect(hash).toBe(independent(e, BigInt(c.chainId), BigInt(account)));
    },
  );

  test('the account address, the chain and every field are bound into the hash', () => {
    const [c] = cases();
    const e = asExecution(c);
    const base = outsideExecutionHashV1(e, BigInt(SEPOLIA), BigInt(account));
    const variants: OutsideExecution[] = [
      { ...e, nonce: e.nonce + 1n },
      { ...e, caller: ANY_CALLER },
      { ...e, executeAfter: e.executeAfter - 1n },
      { ...e, executeBefore: e.executeBefore + 1n },
      { ...e, calls: [{ ...e.calls[0], calldata: [...e.calls[0].calldata.slice(0, 2), 1001n] }] },
      { ...e, calls: [{ ...e.calls[0], selector: selectorFromName('approve') }] },
    ];
    for (const v of variants) {
      expect(outsideExecutionHashV1(v, BigInt(SEPOLIA), BigInt(account))).not.toBe(base);
      expect(outsideExecutionHashV2(v, BigInt(SEPOLIA), BigInt(account))).not.toBe(
        outsideExecutionHashV2(e, BigInt(SEPOLIA), BigInt(account)),
      );
    }
    expect(
      outsideExecutionHashV1(e, BigInt(constants.StarknetChainId.SN_MAIN), BigInt(account)),
    ).not.toBe(base);
    expect(outsideExecutionHashV1(e, BigInt(SEPOLIA), BigInt(account) + 1n)).not.toBe(base);
  });

  test.each([OutsideExecutionVersion.V1, OutsideExecutionVersion.V2])(
    'calldata built by starknet.js reads back as the signed struct, and its signature verifies (v%s)',
    async (version) => {
      const privateKey = stark.randomAddress();
      const publicKey = BigInt(scure.getStarkKey(privateKey));
      const [c] = cases();
      const data = snOutsideExecution.getTypedData(c.chainId, c.options, c.nonce, c.calls, version);
      const signature = await new Signer(privateKey).signMessage(data, account);
      const calldata = snOutsideExecution.buildExecuteFromOutsideCallData({
        // CallData.compile flattens in key order: the Cairo struct's order, as starknet.js's
        // own getOutsideTransaction builds it.
        outsideExecution: {
          caller: c.options.caller,
          nonce: c.nonce,
          execute_after: c.options.execute_after,
          execute_before: c.options.execute_before,
          calls: c.calls.map(snOutsideExecution.getOutsideCall),
        },
        signature,
        signerAddress: account,
        version,
      });
      const input = new CalldataReader(CallData.toCalldata(calldata).map(BigInt));
      const read = readOutsideExecution(input);
      const [r, s] = input.array();
      input.end();
      expect(read).toEqual(asExecution(c));
      const hash =
        version === OutsideExecutionVersion.V1
          ? outsideExecutionHashV1(read, BigInt(c.chainId), BigInt(account))
          : outsideExecutionHashV2(read, BigInt(c.chainId), BigInt(account));
      expect(verifyStarkSignature(hash, r, s, publicKey)).toBe(true);
      // @scure checks against the full public key (both coordinates), derived on its own side.
      const fullKey = scure.getPublicKey(privateKey, false);
      expect(scure.verify(new scure.Signature(r, s), toHex(hash), fullKey)).toBe(true);
      expect(verifyStarkSignature(hash + 1n, r, s, publicKey)).toBe(false);
      const other = BigInt(scure.getStarkKey(stark.randomAddress()));
      expect(verifyStarkSignature(hash, r, s, other)).toBe(false);
    },
  );

  test('a time bound above u64 fails to deserialize, as in Cairo', () => {
    const input = new CalldataReader([1n, 2n, 2n ** 64n, 3n, 0n]);
    expect(() => readOutsideExecution(input)).toThrow('Failed to deserialize');
  });

  describe('checks before the signature (block timestamp 1000, relayer 0x99)', () => {
    const NOW = 1000;
    const errors = {
      invalidCaller: 'caller',
      notYetValid: 'early',
      expired: 'late',
      duplicatedNonce: 'nonce',
    };
    const nonceSlot = 0x5105n;
    function context(nonceUsed = false): CallContext {
      const state = new StateOverlay(new VersionedState().at(0));
      if (nonceUsed) state.setStorage(0x1n, nonceSlot, 1n);
      const block = { blockNumber: 1, timestamp: NOW, sequencerAddress: 0n, chainId: 1n };
      return new CallContext(new Execution(state, new ClassStore(), block, undefined), 0x1n, 0x99n);
    }
    const run =
      (e: Partial<OutsideExecution>, nonceUsed = false) =>
      () =>
        checkOutsideExecution(
          context(nonceUsed),
          { caller: 0x99n, nonce: 1n, executeAfter: 999n, executeBefore: 1001n, calls: [], ...e },
          nonceSlot,
          errors,
        );

    test('the window excludes both bounds: execute_after < now < execute_before', () => {
      expect(run({})).not.toThrow();
      expect(run({ executeAfter: 1000n })).toThrow('early');
      expect(run({ executeAfter: 1001n, executeBefore: 2000n })).toThrow('early');
      expect(run({ executeBefore: 1000n })).toThrow('late');
      expect(run({ executeAfter: 0n, executeBefore: 999n })).toThrow('late');
    });

    test("the caller must be the one signed, unless it is 'ANY_CALLER'", () => {
      expect(run({ caller: 0x98n })).toThrow('caller');
      expect(run({ caller: 0n })).toThrow('caller');
      expect(run({ caller: ANY_CALLER })).not.toThrow();
    });

    test('a used nonce is refused', () => {
      expect(run({}, true)).toThrow('nonce');
    });
  });
});
