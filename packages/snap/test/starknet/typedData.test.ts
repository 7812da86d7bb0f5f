/**
 * docs/security.md#nothing-signed-that-was-not-shown: typed data is shown exactly as it is hashed.
 * Each test signs a message whose values are written the ways a hostile site would write them
 * ("0x1" for a revision 0 bool, "true" as text, "0b11", a selector as text...), reads the values
 * back FROM THE DIALOG, hashes those shown values with an independent SNIP-12 implementation
 * written here on @scure/starknet (Pedersen / Poseidon, starknet_keccak), and checks that the
 * snap's signature verifies against that hash with @scure/starknet, and that starknet.js's
 * typedData gives the same hash for the message as sent. A value shown as anything but what was
 * hashed breaks the signature check.
 */
import { computeHashOnElements, keccak, poseidonHashMany } from '@scure/starknet';
import { outsideExecution, typedData, type TypedData } from 'starknet';

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  installGranted,
  resultOf,
  TESTNET,
  verifyWithScure,
  type ExpectedAccount,
} from '../harness/snap';
import { REV0_TYPED_DATA, REV1_TYPED_DATA } from '../fixtures/typedData';

const PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

type Member = { name: string; type: string };

const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value);
const shortString = (value: string): bigint =>
  [...value].reduce((sum, char) => (sum << 8n) + BigInt(char.charCodeAt(0)), 0n);

/** The value the dialog shows on the row "<label> (<type>)". */
function shown(text: string, label: string, type: string): string {
  const row = `${label} (${type})\n`;
  const at = text.indexOf(row);
  expect(at).toBeGreaterThanOrEqual(0);
  return text.slice(at + row.length).split('\n')[0];
}

/**
 * The felt a shown value stands for, read the way a user reads the row: a bool's word (or the
 * number shown for one that is neither), a number (hex first, else decimal, else a date's
 * seconds), a short string shown as text.
 */
function feltOfShown(value: string, type: string): bigint {
  if (type === 'bool' && (value === 'true' || value === 'false')) {
    return value === 'true' ? 1n : 0n;
  }
  if (type === 'i128') {
    const signed = BigInt(value);
    return signed < 0n ? PRIME + signed : signed;
  }
  if (type === 'timestamp') {
    return BigInt(/\((\d+)\)$/u.exec(value)?.[1] ?? 'x');
  }
  const inParens = /\((0x[0-9a-f]+)\)$/u.exec(value);
  if (inParens) {
    return BigInt(inParens[1]); // `name (0x...)` of a selector, `"text" (0x...)` of a short string
  }
  const leading = /^(-?0x[0-9a-f]+|\d+)\b/u.exec(value);
  if (leading) {
    return BigInt(leading[1]);
  }
  return shortString(value); // a short string shown as its text
}

/** SNIP-12 written out independently: type hash, struct hash, message hash. */
function independentHash(
  revision: 0 | 1,
  domain: { type: string; members: Member[]; values: bigint[] },
  message: { type: string; members: Member[]; values: bigint[] },
  account: string,
): bigint {
  const encodeType = (name: string, members: Member[]): string =>
    revision === 1
      ? `"${name}"(${members.map((m) => `"${m.name}":"${m.type}"`).join(',')})`
      : `${name}(${members.map((m) => `${m.name}:${m.type}`).join(',')})`;
  const hashMany = (values: bigint[]): bigint =>
    revision === 1
      ? poseidonHashMany(values)
      : BigInt(computeHashOnElements(values) as string | bigint);
  const struct = (part: typeof domain): bigint =>
    hashMany([keccak(utf8(encodeType(part.type, part.members))), ...part.values]);
  return hashMany([
    shortString('StarkNet Message'),
    struct(domain),
    BigInt(account),
    struct(message),
  ]);
}

/**
 * The check of this file: the domain's and the message's values read back from the dialog, hashed
 * independently, give starknet.js's hash of the message as sent, and the snap's signature
 * verifies against that hash (@scure/starknet). `data` is flat: basic members only.
 */
function expectSignedAsShown(
  revision: 0 | 1,
  text: string,
  signature: string[],
  data: { types: Record<string, Member[]>; primaryType: string },
  account: ExpectedAccount,
): void {
  const domainType = revision === 1 ? 'StarknetDomain' : 'StarkNetDomain';
  const part = (type: string) => ({
    type,
    members: data.types[type],
    values: shownValues(text, data.types[type]),
  });
  const hash = `0x${independentHash(revision, part(domainType), part(data.primaryType), account.address).toString(16)}`;
  expect(hash).toBe(typedData.getMessageHash(data as unknown as TypedData, account.address));
  expect(verifyWithScure(account, hash, signature)).toBe(true);
}

/** A snap whose account 0 is created and granted to the test's site: its requests and address. */
async function withAccount0() {
  const { request } = await installGranted({ indexes: [0] });
  const { address } = resultOf<{ address: string }>(
    await request({ method: 'l2_createAccount', params: { addressIndex: 0 } }),
  );
  return { request, address };
}

/** Signs `data` with account 0 (approving the dialog); the dialog's text and the signature. */
async function signShowing(
  { request, address }: Awaited<ReturnType<typeof withAccount0>>,
  data: unknown,
): Promise<{ text: string; signature: string[] }> {
  const pending = request({
    method: 'l2_signMessage',
    params: { typedDataMessage: data as never, signerAddress: address },
  });
  const ui = asConfirmation(await pending.getInterface());
  const text = dialogText(ui.content);
  await ui.ok();
  return { text, signature: resultOf<string>(await pending).split(',') };
}

/** Reads every member of `type` back from the dialog (no prefix: top-level members). */
function shownValues(text: string, members: Member[]): bigint[] {
  return members.map((member) => feltOfShown(shown(text, member.name, member.type), member.type));
}

describe('typed data is shown as it is hashed', () => {
  // Signing stores nothing (no state write, whichever way the dialog goes), so the tests share one
  // installed snap; none installs its own, so none stops it (snaps-jest runs one snap at a time).
  let account0: Awaited<ReturnType<typeof withAccount0>>;
  beforeAll(async () => {
    account0 = await withAccount0();
  });

  it('revision 0: a bool "0x1" is true, "true" as text is the number it hashes to, felts as numbers', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const order: Member[] = [
      { name: 'flag', type: 'bool' },
      { name: 'other', type: 'bool' },
      { name: 'amount', type: 'felt' },
      { name: 'note', type: 'felt' },
      { name: 'who', type: 'felt' },
      { name: 'action', type: 'selector' },
      { name: 'memo', type: 'string' },
    ];
    const domainMembers = REV0_TYPED_DATA.types.StarkNetDomain;
    const data = {
      types: { StarkNetDomain: domainMembers, Order: order },
      primaryType: 'Order',
      domain: REV0_TYPED_DATA.domain,
      message: {
        flag: '0x1',
        other: 'true',
        amount: '0b11',
        note: 'hello',
        who: '0x0000000000000000000000000000000000000000000000000000000000000abc',
        action: '123',
        memo: '123',
      },
    };
    const { text, signature } = await signShowing(account0, data);
    expect(shown(text, 'flag', 'bool')).toBe('true');
    // starknet.js hashes the text "true" as its short string, 0x74727565.
    expect(shown(text, 'other', 'bool')).toBe(
      '1953658213 (not a boolean: hashed as the number 1953658213)',
    );
    expect(shown(text, 'amount', 'felt')).toBe('0x3 (3)');
    expect(shown(text, 'note', 'felt')).toBe('0x68656c6c6f (448378203247, "hello")');
    expect(shown(text, 'who', 'felt')).toBe('0xabc (2748)');
    // A selector given as text is hashed as its starknet_keccak, not as the number 123.
    expect(shown(text, 'action', 'selector')).toBe(`123 (0x${keccak(utf8('123')).toString(16)})`);
    expect(shown(text, 'memo', 'string')).toBe('0x7b (123, "{")');

    expectSignedAsShown(0, text, signature, data, account);
  });

  it('revision 1: i128, u128, short strings, felts, selectors and timestamps', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const order: Member[] = [
      { name: 'flag', type: 'bool' },
      { name: 'delta', type: 'i128' },
      { name: 'size', type: 'u128' },
      { name: 'label', type: 'shortstring' },
      { name: 'code', type: 'felt' },
      { name: 'action', type: 'selector' },
      { name: 'at', type: 'timestamp' },
      { name: 'who', type: 'ContractAddress' },
    ];
    const domainMembers = REV1_TYPED_DATA.types.StarknetDomain;
    const data = {
      types: { StarknetDomain: domainMembers, Order: order },
      primaryType: 'Order',
      domain: REV1_TYPED_DATA.domain,
      message: {
        flag: true,
        delta: '-5',
        size: '0x2a',
        label: '0x616c696365',
        code: '0b1010',
        action: 'transfer',
        at: '0x10',
        who: '0xabc',
      },
    };
    const { text, signature } = await signShowing(account0, data);
    expect(shown(text, 'delta', 'i128')).toBe('-5');
    expect(shown(text, 'size', 'u128')).toBe('42');
    expect(shown(text, 'label', 'shortstring')).toBe('"alice" (0x616c696365)');
    expect(shown(text, 'code', 'felt')).toBe('0xa (10)');
    expect(shown(text, 'action', 'selector')).toMatch(/^transfer \(0x83afd3f4/u);
    expect(shown(text, 'at', 'timestamp')).toBe('1970-01-01T00:00:16Z (16)');
    // The domain's revision "1" is hashed as the number 1, and shown so.
    expect(shown(text, 'revision', 'shortstring')).toBe('0x1');

    expectSignedAsShown(1, text, signature, data, account);
  });

  it('revision 1: an enum variant with its values, u256 and a token amount, each as hashed', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const data = {
      types: {
        StarknetDomain: REV1_TYPED_DATA.types.StarknetDomain,
        Order: [
          { name: 'side', type: 'enum', contains: 'Side' },
          { name: 'limit', type: 'u256' },
          { name: 'pay', type: 'TokenAmount' },
        ],
        Side: [
          { name: 'Buy', type: '(u128,felt)' },
          { name: 'Sell', type: '()' },
        ],
      },
      primaryType: 'Order',
      domain: REV1_TYPED_DATA.domain,
      message: {
        side: { Buy: ['0x10', 'hello'] },
        limit: { low: '0b1', high: '0x1' },
        pay: { token_address: '0x999', amount: { low: '0x5', high: '0' } },
      },
    };
    const { text, signature } = await signShowing(account0, data);
    expect(shown(text, 'side', 'enum Side')).toBe('Buy');
    expect(shown(text, 'side.Buy[0]', 'u128')).toBe('16');
    expect(shown(text, 'side.Buy[1]', 'felt')).toBe('0x68656c6c6f (448378203247, "hello")');
    expect(shown(text, 'limit', 'u256')).toBe(String((1n << 128n) + 1n));
    expect(shown(text, 'pay.amount', 'u256')).toBe('5 (token not in your watch list: raw units)');
    expect(shown(text, 'pay.token_address', 'ContractAddress')).toBe(
      `0x${'999'.padStart(64, '0')}`,
    );
    const hash = typedData.getMessageHash(data as unknown as TypedData, account.address);
    expect(verifyWithScure(account, hash, signature)).toBe(true);
  });
  it('an outside execution (SNIP-9 v1) whose selector is written as text shows the felt that text hashes to, not the entry point', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const data = JSON.parse(
      JSON.stringify(
        outsideExecution.getTypedData(
          TESTNET,
          { caller: 'ANY_CALLER', execute_after: 1, execute_before: 2_000_000_000 },
          '0x1',
          [{ contractAddress: '0x999', entrypoint: 'transfer', calldata: ['0x1', '0x2', '0x0'] }],
          '1',
        ),
      ),
    );
    // Version 1 types the selector as a felt: "transfer" hashes as its short string, which is
    // not transfer's selector (the call would run another entry point).
    data.message.calls[0].selector = 'transfer';
    const { text, signature } = await signShowing(account0, data);
    expect(text).toContain(`Call 1 of 1: 0x${shortString('transfer').toString(16)}`);
    expect(text).not.toContain('Call 1 of 1: transfer');
    const hash = typedData.getMessageHash(data as TypedData, account.address);
    expect(verifyWithScure(account, hash, signature)).toBe(true);
  });
});

describe('a types entry that redeclares a basic or preset type is refused', () => {
  const names = [
    'bool',
    'felt',
    'string',
    'selector',
    'merkletree',
    'enum',
    'u128',
    'i128',
    'ContractAddress',
    'ClassHash',
    'timestamp',
    'shortstring',
    'u256',
    'TokenAmount',
    'NftId',
  ];
  // Every test here is refused before any dialog or state change: they share one installed snap.
  // None installs its own, which would stop it (snaps-jest runs one snap at a time), so the
  // order they run in does not matter.
  let account0: Awaited<ReturnType<typeof withAccount0>>;
  beforeAll(async () => {
    account0 = await withAccount0();
  });

  it.each(
    names.flatMap((name) => [
      [name, 0],
      [name, 1],
    ]) as [string, 0 | 1][],
  )('%s in revision %i: -32602 naming it, no dialog', async (name, revision) => {
    const base = revision === 1 ? REV1_TYPED_DATA : REV0_TYPED_DATA;
    const domainType = revision === 1 ? 'StarknetDomain' : 'StarkNetDomain';
    // The attack in docs/security.md#nothing-signed-that-was-not-shown: a "bool" that is a struct,
    // whose members are signed but were shown as one boolean.
    const data = {
      types: {
        [domainType]: (base.types as Record<string, Member[]>)[domainType],
        [name]: [
          { name: 'recipient', type: 'felt' },
          { name: 'amount', type: 'felt' },
        ],
        Approval: [{ name: 'approved', type: name }],
      },
      primaryType: 'Approval',
      domain: base.domain,
      message: { approved: { recipient: '0xbad', amount: '1000000' } },
    };
    const { request, address } = account0;
    expectError(
      await request({
        method: 'l2_signMessage',
        params: { typedDataMessage: data as never, signerAddress: address, chainId: TESTNET },
      }),
      -32602,
      new RegExp(
        `^Invalid params: "typedDataMessage\\.types\\.${name}" redeclares the basic type "${name}"`,
        'u',
      ),
    );
  });

  it('refuses a type name written as an array or an enum variant', async () => {
    const { request, address } = account0;
    const data = {
      ...REV1_TYPED_DATA,
      types: { ...REV1_TYPED_DATA.types, 'Call*': [{ name: 'to', type: 'felt' }] },
    };
    expectError(
      await request({
        method: 'l2_signMessage',
        params: { typedDataMessage: data as never, signerAddress: address },
      }),
      -32602,
      /"typedDataMessage\.types\.Call\*" is not a type name/u,
    );
  });
});
