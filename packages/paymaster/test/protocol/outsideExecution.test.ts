/**
 * The outside execution the paymaster builds is the one starknet.js (the client that signs it)
 * and an independent implementation (@scure/starknet's Pedersen and Poseidon) agree on: the same
 * message hash, and the same execute_from_outside calldata.
 */
import { computeHashOnElements, poseidonHashMany } from '@scure/starknet';
import { hash, outsideExecution as snip9, shortString, type TypedData, typedData } from 'starknet';

import { PaymasterError } from '../../src/errors';
import { SELECTORS, transferCall } from '../../src/protocol/calls';
import { toHex } from '../../src/protocol/felt';
import {
  executeFromOutsideCall,
  type OutsideExecution,
  outsideExecutionHash,
  outsideExecutionTypedData,
  parseOutsideExecutionTypedData,
} from '../../src/protocol/outsideExecution';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON typed data, altered in place
type Json = any;

const CHAIN = BigInt(shortString.encodeShortString('SN_SEPOLIA'));
const ACCOUNT = 0x1234567890abcdefn;
const STRK = 0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938dn;

const execution: OutsideExecution = {
  caller: 0xabcn,
  nonce: 0x7777n,
  executeAfter: 1_700_000_000n,
  executeBefore: 1_700_000_600n,
  calls: [
    {
      to: 0x111n,
      selector: BigInt(hash.getSelectorFromName('approve')),
      calldata: [0x5n, 10n, 0n],
    },
    transferCall(STRK, 0xabcn, 12345n),
  ],
};

/** The typed data starknet.js builds itself for `execution`, as a dapp writes its calls. */
const starknetJsTypedData = (version: '1' | '2') =>
  snip9.getTypedData(
    toHex(CHAIN),
    {
      caller: toHex(execution.caller),
      execute_after: 1_700_000_000,
      execute_before: 1_700_000_600,
    },
    toHex(execution.nonce),
    [
      { contractAddress: '0x111', entrypoint: 'approve', calldata: ['0x5', '10', '0'] },
      { contractAddress: toHex(STRK), entrypoint: 'transfer', calldata: ['0xabc', '12345', '0'] },
    ],
    version,
  );

const sel = (name: string) => BigInt(hash.getSelectorFromName(name));
const pedersenChain = (values: bigint[]) => BigInt(computeHashOnElements(values) as string);

describe('SNIP-9 version 1 (Argent 0.3.1, SNIP-12 revision 0)', () => {
  const data = outsideExecutionTypedData(1, CHAIN, execution);

  it('hashes as starknet.js hashes the typed data it builds itself', () => {
    const theirs = starknetJsTypedData('1');
    const ours = outsideExecutionHash(1, CHAIN, execution, ACCOUNT);
    expect(ours).toBe(BigInt(typedData.getMessageHash(theirs, toHex(ACCOUNT))));
    expect(ours).toBe(BigInt(typedData.getMessageHash(data as TypedData, toHex(ACCOUNT))));
  });

  it('hashes as Pedersen chains computed with @scure/starknet', () => {
    const callType = sel('OutsideCall(to:felt,selector:felt,calldata_len:felt,calldata:felt*)');
    const executionType = sel(
      'OutsideExecution(caller:felt,nonce:felt,execute_after:felt,execute_before:felt,calls_len:felt,calls:OutsideCall*)OutsideCall(to:felt,selector:felt,calldata_len:felt,calldata:felt*)',
    );
    const domainType = sel('StarkNetDomain(name:felt,version:felt,chainId:felt)');
    const calls = execution.calls.map((call) =>
      pedersenChain([
        callType,
        call.to,
        call.selector,
        BigInt(call.calldata.length),
        pedersenChain(call.calldata),
      ]),
    );
    const struct = pedersenChain([
      executionType,
      execution.caller,
      execution.nonce,
      execution.executeAfter,
      execution.executeBefore,
      BigInt(execution.calls.length),
      pedersenChain(calls),
    ]);
    const domain = pedersenChain([
      domainType,
      BigInt(shortString.encodeShortString('Account.execute_from_outside')),
      1n,
      CHAIN,
    ]);
    const message = pedersenChain([
      BigInt(shortString.encodeShortString('StarkNet Message')),
      domain,
      ACCOUNT,
      struct,
    ]);
    expect(outsideExecutionHash(1, CHAIN, execution, ACCOUNT)).toBe(message);
  });

  it('writes selectors as starknet.js compares them before signing (getSelectorFromName)', () => {
    const message = data.message as { calls: { selector: string }[] };
    expect(message.calls[1].selector).toBe(hash.getSelectorFromName('transfer'));
  });

  it("reads back what it built, and execute_from_outside calldata is starknet.js's", () => {
    const parsed = parseOutsideExecutionTypedData(JSON.parse(JSON.stringify(data)), 'typed_data');
    expect(parsed).toEqual({ version: 1, chainId: CHAIN, execution });
    const call = executeFromOutsideCall(1, ACCOUNT, execution, [1n, 2n]);
    expect(call.selector).toBe(SELECTORS.executeFromOutside);
    const theirs = snip9.buildExecuteFromOutsideCallData({
      outsideExecution: {
        caller: toHex(execution.caller),
        nonce: toHex(execution.nonce),
        execute_after: toHex(execution.executeAfter),
        execute_before: toHex(execution.executeBefore),
        calls: execution.calls.map((c) => ({
          to: toHex(c.to),
          selector: toHex(c.selector),
          calldata: c.calldata.map(toHex),
        })),
      },
      signature: ['0x1', '0x2'],
      signerAddress: toHex(ACCOUNT),
      version: '1',
    });
    expect(call.calldata).toEqual(theirs.map(BigInt));
  });
});

describe('SNIP-9 version 2 (SNIP-12 revision 1)', () => {
  it('hashes as starknet.js and as Poseidon chains computed with @scure/starknet', () => {
    const ours = outsideExecutionHash(2, CHAIN, execution, ACCOUNT);
    const theirs = starknetJsTypedData('2');
    expect(ours).toBe(BigInt(typedData.getMessageHash(theirs, toHex(ACCOUNT))));

    const callType = sel('"Call"("To":"ContractAddress","Selector":"selector","Calldata":"felt*")');
    const executionType = sel(
      '"OutsideExecution"("Caller":"ContractAddress","Nonce":"felt","Execute After":"u128","Execute Before":"u128","Calls":"Call*")"Call"("To":"ContractAddress","Selector":"selector","Calldata":"felt*")',
    );
    const domainType = sel(
      '"StarknetDomain"("name":"shortstring","version":"shortstring","chainId":"shortstring","revision":"shortstring")',
    );
    const calls = execution.calls.map((c) =>
      poseidonHashMany([callType, c.to, c.selector, poseidonHashMany(c.calldata)]),
    );
    const struct = poseidonHashMany([
      executionType,
      execution.caller,
      execution.nonce,
      execution.executeAfter,
      execution.executeBefore,
      poseidonHashMany(calls),
    ]);
    const domain = poseidonHashMany([
      domainType,
      BigInt(shortString.encodeShortString('Account.execute_from_outside')),
      2n,
      CHAIN,
      1n,
    ]);
    const expected = poseidonHashMany([
      BigInt(shortString.encodeShortString('StarkNet Message')),
      domain,
      ACCOUNT,
      struct,
    ]);
    expect(ours).toBe(expected);
    expect(executeFromOutsideCall(2, ACCOUNT, execution, []).selector).toBe(
      SELECTORS.executeFromOutsideV2,
    );
  });

  it('reads back what it built, with a short-string chain id too', () => {
    const data = JSON.parse(JSON.stringify(outsideExecutionTypedData(2, CHAIN, execution)));
    expect(parseOutsideExecutionTypedData(data, 'td').execution).toEqual(execution);
    data.domain.chainId = 'SN_SEPOLIA';
    expect(parseOutsideExecutionTypedData(data, 'td').chainId).toBe(CHAIN);
  });
});

describe('typed data that is not a SNIP-9 outside execution is refused, naming the field', () => {
  const base = () => JSON.parse(JSON.stringify(outsideExecutionTypedData(1, CHAIN, execution)));
  const refusal = (data: unknown) => {
    try {
      parseOutsideExecutionTypedData(data, 'typed_data');
    } catch (error) {
      expect(error).toBeInstanceOf(PaymasterError);
      return (error as PaymasterError).message;
    }
    throw new Error('accepted');
  };

  it.each([
    ['another primary type', (d: Json) => (d.primaryType = 'Mail'), 'typed_data.primaryType'],
    ['an extra type', (d: Json) => (d.types.Extra = []), 'typed_data.types'],
    ['another domain name', (d: Json) => (d.domain.name = 'Dapp'), 'typed_data.domain.name'],
    ['an unknown version', (d: Json) => (d.domain.version = '3'), 'typed_data.domain.version'],
    ['calls_len not the calls', (d: Json) => (d.message.calls_len = '0x5'), 'calls_len'],
    [
      'calldata_len not the calldata',
      (d: Json) => (d.message.calls[0].calldata_len = '0x1'),
      'calldata_len',
    ],
    ['an extra message member', (d: Json) => (d.message.fee = '0x1'), 'typed_data.message.fee'],
    [
      'a felt above the prime',
      (d: Json) => (d.message.nonce = `0x${'f'.repeat(64)}`),
      'typed_data.message.nonce',
    ],
  ])('%s', (_name, alter, field) => {
    const data = base();
    alter(data);
    expect(refusal(data)).toContain(field);
  });
});
