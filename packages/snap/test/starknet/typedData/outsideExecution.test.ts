/**
 * A SNIP-9 outside execution in l2_signMessage is shown like a transaction, with its warning
 * (src/starknet/typedData/outsideExecution.ts). Typed data from starknet.js's
 * outsideExecution.getTypedData; signatures checked with @scure/starknet.
 */
import { outsideExecution, typedData, type TypedData } from 'starknet';

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  jsonParams,
  pad,
  resultOf,
  TESTNET,
  verifyWithScure,
  PORTED_SITE as SITE,
  PORTED_SITE_ORIGIN as ORIGIN,
  snapForSite as snapForDapp,
} from '../../harness/snap';
import { STRK_TOKEN } from '@l2wallet/testkit';

const STRK = STRK_TOKEN;
const RECIPIENT = pad(0xabc123n);
/** 'ANY_CALLER' as a short string (SNIP-9): anyone may submit the execution. */
const ANY_CALLER = '0x414e595f43414c4c4552';

describe('SNIP-9 outside execution', () => {
  const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
  const calls = [
    {
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: [RECIPIENT, '1500000000000000000', '0'],
    },
    { contractAddress: pad(0x777n), entrypoint: 'do_something', calldata: ['0x5', '0x6'] },
  ];
  // Signing stores nothing whether its dialog is approved or cancelled, and a refusal changes
  // nothing; this offline snap reads no nonce to keep, so the tests share one snap. None installs
  // its own (which would stop it: snaps-jest runs one snap at a time), so any order works.
  let snap: Awaited<ReturnType<typeof snapForDapp>>;
  beforeAll(async () => {
    snap = await snapForDapp([0]);
  });

  it.each([
    ['version 1', '1' as const],
    ['version 2', '2' as const],
  ])('%s is shown like a transaction, with the warning', async (_label, version) => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const data = outsideExecution.getTypedData(
      TESTNET,
      // Version 1's caller is a felt (the short string as text); version 2's a ContractAddress.
      {
        caller: version === '1' ? 'ANY_CALLER' : ANY_CALLER,
        execute_after: NOW,
        execute_before: NOW + 3600,
      },
      '0x42',
      calls,
      version,
    );
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_signMessage',
      params: {
        typedDataMessage: JSON.parse(JSON.stringify(data)),
        signerAddress: account.address,
      },
    });
    const ui = asConfirmation(await pending.getInterface());
    const text = dialogText(ui.content);
    expect(text).toContain(SITE);
    expect(text).toContain(`Whoever holds this signature can run the calls below on your behalf`);
    expect(text).toContain('Allowed caller\nanyone (ANY_CALLER)');
    expect(text).toContain('Valid after\n2026-01-01T00:00:00Z');
    expect(text).toContain('Valid until\n2026-01-01T01:00:00Z');
    expect(text).toContain('Call 1 of 2: transfer');
    expect(text).toContain(`Contract\n${STRK} (STRK, Starknet Token)`);
    expect(text).toContain(`recipient\n${RECIPIENT}`);
    expect(text).toContain('amount\n1.5 STRK (1500000000000000000)');
    // An unknown entry point is named by its selector, with every calldata felt.
    expect(text).toMatch(/Call 2 of 2: 0x[0-9a-f]+/u);
    expect(text).toContain('calldata[1]\n0x6');
    await ui.ok();
    const signature = resultOf<string>(await pending).split(',');
    const hash = typedData.getMessageHash(data as unknown as TypedData, account.address);
    expect(verifyWithScure(account, hash, signature)).toBe(true);
  });

  it('names a restricted caller, and refuses a calls_len that does not match', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const caller = pad(0xca11e4n);
    const data = outsideExecution.getTypedData(
      TESTNET,
      { caller, execute_after: NOW, execute_before: NOW + 60 },
      '0x1',
      calls.slice(0, 1),
      '1',
    );
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_signMessage',
      params: { typedDataMessage: JSON.parse(JSON.stringify(data)), address: account.address },
    });
    const ui = asConfirmation(await pending.getInterface());
    expect(dialogText(ui.content)).toContain(`Allowed caller\n${caller}`);
    await ui.cancel();
    expectError(await pending, 4001);

    const lying = JSON.parse(JSON.stringify(data));
    lying.message.calls_len = 2;
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_signMessage',
        params: { typedDataMessage: lying, address: account.address },
      }),
      -32602,
      /"typedDataMessage\.message\.calls_len" must equal the number of calls/u,
    );
  });

  it('is shown as its calls whatever spelling its domain name hashes from (decimal, 64-digit hex, 0X)', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const honest = JSON.parse(
      JSON.stringify(
        outsideExecution.getTypedData(
          TESTNET,
          { caller: 'ANY_CALLER', execute_after: NOW, execute_before: NOW + 3600 },
          '0x7',
          calls.slice(0, 1),
          '1',
        ),
      ),
    ) as TypedData;
    const name = BigInt(`0x${Buffer.from('Account.execute_from_outside').toString('hex')}`);
    const expected = typedData.getMessageHash(honest, account.address);
    for (const spelled of [
      name.toString(),
      `0x${name.toString(16).padStart(64, '0')}`,
      `0X${name.toString(16)}`,
    ]) {
      const disguised = { ...honest, domain: { ...honest.domain, name: spelled } };
      // starknet.js (and the account) hash it as the real thing...
      expect(typedData.getMessageHash(disguised, account.address)).toBe(expected);
      const pending = snap.request({
        origin: ORIGIN,
        method: 'l2_signMessage',
        params: { typedDataMessage: jsonParams(disguised), address: account.address },
      });
      const ui = asConfirmation(await pending.getInterface());
      // ...so the snap shows it as the calls it allows, with the warning.
      const text = dialogText(ui.content);
      expect(text).toContain('An outside execution (SNIP-9, version 1)');
      expect(text).toContain('Whoever holds this signature can run the calls below');
      expect(text).toContain('Call 1 of 1: transfer');
      await ui.cancel();
      expectError(await pending, 4001);
    }
  });
});
