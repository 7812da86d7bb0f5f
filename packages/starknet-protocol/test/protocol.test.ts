/**
 * The protocol module writes selectors, ids and encodings out instead of computing them with
 * starknet.js (so a snap bundle does not load it for them): each is checked against starknet.js.
 */
import { constants, hash, outsideExecution, shortString, transaction, uint256 } from 'starknet';

import { multicallCalldata, readTransfer, SELECTORS, transferCall } from '../src/calls';
import { formatAddress, isU128, toHex, u256Join, u256Split } from '../src/felt';
import {
  ANY_CALLER,
  OUTSIDE_EXECUTION_DOMAIN,
  OUTSIDE_EXECUTION_KEYS,
  SNIP9_INTERFACE_IDS,
} from '../src/outsideExecution';
import {
  executeFromOutsideCall,
  OUTSIDE_EXECUTION_TYPES,
  outsideExecutionTypedData,
} from '../src/outsideExecutionTypedData';

const NAMES: Record<keyof typeof SELECTORS, string> = {
  transfer: 'transfer',
  balanceOf: 'balance_of',
  decimals: 'decimals',
  deployContract: 'deploy_contract',
  supportsInterface: 'supports_interface',
  isValidSignature: 'is_valid_signature',
  executeFromOutside: 'execute_from_outside',
  executeFromOutsideV2: 'execute_from_outside_v2',
};

const CALLS = [
  transferCall(
    0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938dn,
    0xabcn,
    2n ** 130n + 5n,
  ),
  { to: 0x123n, selector: SELECTORS.decimals, calldata: [] },
];

describe('starknet-protocol', () => {
  it.each(Object.entries(NAMES))('SELECTORS.%s is starknet_keccak("%s")', (key, name) => {
    expect(toHex(SELECTORS[key as keyof typeof SELECTORS])).toBe(hash.getSelectorFromName(name));
  });

  it("SNIP-9's caller and interface ids are starknet.js's", () => {
    expect(toHex(ANY_CALLER)).toBe(shortString.encodeShortString('ANY_CALLER'));
    expect(BigInt(constants.OutsideExecutionCallerAny)).toBe(ANY_CALLER);
    expect(SNIP9_INTERFACE_IDS[1]).toBe(BigInt(constants.SNIP9_V1_INTERFACE_ID));
    expect(SNIP9_INTERFACE_IDS[2]).toBe(BigInt(constants.SNIP9_V2_INTERFACE_ID));
  });

  it('u256 halves are uint256.bnToUint256; a half of 2^128 or more is not a u128', () => {
    const value = 2n ** 200n + 12345n;
    const { low, high } = uint256.bnToUint256(value);
    expect(u256Split(value)).toEqual([BigInt(low), BigInt(high)]);
    expect(u256Join(BigInt(low), BigInt(high))).toBe(value);
    expect(isU128(2n ** 128n - 1n)).toBe(true);
    expect(isU128(2n ** 128n)).toBe(false);
    expect(formatAddress(0xabcn)).toBe(`0x${'0'.repeat(61)}abc`);
  });

  it("multicall calldata is starknet.js's Cairo 1 __execute__ calldata", () => {
    const byName = [
      { contractAddress: toHex(CALLS[0].to), entrypoint: 'transfer', calldata: CALLS[0].calldata },
      { contractAddress: toHex(CALLS[1].to), entrypoint: 'decimals', calldata: [] },
    ];
    const expected = transaction.getExecuteCalldata(byName, '1');
    expect(multicallCalldata(CALLS).map(toHex)).toEqual(expected.map((value) => toHex(value)));
  });

  it('a transfer reads back as its parts; any other call does not', () => {
    const [fee, other] = CALLS;
    const [low, high] = u256Split(2n ** 130n + 5n);
    expect(readTransfer(fee)).toEqual({ token: fee.to, recipient: 0xabcn, low, high });
    expect(readTransfer(other)).toBeUndefined();
    expect(readTransfer({ ...fee, calldata: fee.calldata.slice(0, 2) })).toBeUndefined();
  });

  it.each([1, 2] as const)(
    "version %i: the types, names and calldata are starknet.js's outsideExecution's",
    (version) => {
      const chainId = constants.StarknetChainId.SN_SEPOLIA;
      const options = { caller: '0x456', execute_after: 100, execute_before: 200 };
      const calls = CALLS.map((call) => ({
        contractAddress: toHex(call.to),
        entrypoint: toHex(call.selector),
        calldata: call.calldata.map(toHex),
      }));
      const theirs = outsideExecution.getTypedData(
        chainId,
        options,
        7,
        calls,
        version === 1 ? '1' : '2',
      );
      const execution = {
        caller: 0x456n,
        nonce: 7n,
        executeAfter: 100n,
        executeBefore: 200n,
        calls: CALLS,
      };
      const ours = outsideExecutionTypedData(version, BigInt(chainId), execution);
      expect(ours.types).toEqual(theirs.types);
      expect(ours.types).toBe(OUTSIDE_EXECUTION_TYPES[version]);
      expect(ours.domain.name).toBe(OUTSIDE_EXECUTION_DOMAIN);
      expect(Object.keys(ours.message).sort()).toEqual(Object.keys(theirs.message).sort());
      const keys = OUTSIDE_EXECUTION_KEYS[version];
      const named = [keys.caller, keys.nonce, keys.executeAfter, keys.executeBefore, keys.calls];
      expect(Object.keys(ours.message).sort()).toEqual(
        [...named, ...(keys.callsLength ? [keys.callsLength] : [])].sort(),
      );
      const signature = [0x1n, 0x2n];
      const call = executeFromOutsideCall(version, 0x999n, execution, signature);
      const outsideTx = {
        outsideExecution: {
          caller: '0x456',
          nonce: '0x7',
          execute_after: '0x64',
          execute_before: '0xc8',
          calls: calls.map((c) => ({
            to: c.contractAddress,
            selector: c.entrypoint,
            calldata: c.calldata,
          })),
        },
        signature: signature.map(toHex),
        signerAddress: '0x999',
        version: version === 1 ? '1' : '2',
      };
      const built = outsideExecution.buildExecuteFromOutsideCall(outsideTx as never)[0];
      expect(toHex(call.selector)).toBe(hash.getSelectorFromName(built.entrypoint));
      expect(call.calldata.map(toHex)).toEqual(
        (built.calldata as string[]).map((value) => toHex(value)),
      );
    },
  );
});
