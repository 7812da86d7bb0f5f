import {
  Account,
  Call,
  CallData,
  constants,
  ec,
  hash,
  num,
  outsideExecution,
  OutsideExecutionVersion,
  OutsideTransaction,
  RpcError,
  Signer,
  src5,
  stark,
  typedData,
} from 'starknet';
import { ARGENT_ACCOUNT_CLASS_HASH, STRK_TOKEN_ADDRESS } from '../src';
import { rpc, startTestDevnet, strkBalance, TestDevnet, transferCall, WAIT } from './helpers';

// SNIP-9 outside execution on the devnet's account classes, driven by starknet.js's own SNIP-9
// client (getSnip9Version, getOutsideTransaction, executeFromOutside): Argent 0.3.1 has version 1
// (`execute_from_outside`), OpenZeppelin 1.0.0 version 2 (`execute_from_outside_v2`).

/** Bounds that skip starknet.js's estimate, so a refused outside execution still lands on chain. */
const BOUNDS = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 200_000_000_000n },
  l2_gas: { max_amount: 20_000_000n, max_price_per_unit: 2_000_000n },
  l1_data_gas: { max_amount: 10_000n, max_price_per_unit: 200_000n },
};

const TRANSFER_EVENT = hash.getSelectorFromName('Transfer');
const TRANSACTION_EXECUTED = hash.getSelectorFromName('TransactionExecuted');

interface ReceiptValue {
  execution_status: string;
  revert_reason?: string;
  actual_fee: { amount: string };
  events: { from_address: string; keys: string[]; data: string[] }[];
}

describe('SNIP-9 outside execution', () => {
  let t: TestDevnet;
  const key = stark.randomAddress();
  const publicKey = ec.starkCurve.getStarkKey(key);
  const userAddress = num.toHex(
    hash.calculateContractAddressFromHash(
      publicKey,
      ARGENT_ACCOUNT_CLASS_HASH,
      CallData.compile([publicKey, 0]),
      0,
    ),
  );
  let user: Account;
  let relayer: Account;
  let recipient: string;

  /** A window around the chain's clock, in seconds from the latest block. */
  async function window(after: number, before: number) {
    const { timestamp } = await t.provider.getBlock('latest');
    return { execute_after: timestamp + after, execute_before: timestamp + before };
  }

  async function signed(
    signer: Account,
    amount: bigint,
    options: { caller?: string; after?: number; before?: number; nonce?: string } = {},
  ): Promise<OutsideTransaction> {
    const bounds = await window(options.after ?? -3600, options.before ?? 3600);
    return signer.getOutsideTransaction(
      { caller: options.caller ?? relayer.address, ...bounds },
      [transferCall(recipient, amount)],
      undefined,
      options.nonce,
    );
  }

  /** The relayer's transaction with fixed bounds: included even when the outside call fails. */
  async function submit(by: Account, calls: Call[]): Promise<ReceiptValue & { hash: string }> {
    const sent = await by.execute(calls, { resourceBounds: BOUNDS, tip: 0n });
    const receipt = await t.provider.waitForTransaction(sent.transaction_hash, WAIT);
    return { ...(receipt.value as unknown as ReceiptValue), hash: sent.transaction_hash };
  }

  async function balances(...addresses: string[]): Promise<bigint[]> {
    return Promise.all(addresses.map((a) => strkBalance(t.provider, a)));
  }

  /** Refused on chain: the relayer's transaction reverts with `reason`, only its fee moves. */
  async function expectRefused(
    signer: Account,
    outside: OutsideTransaction | Call[],
    reason: string,
    by = relayer,
  ): Promise<void> {
    const calls = Array.isArray(outside)
      ? outside
      : outsideExecution.buildExecuteFromOutsideCall(outside);
    // The relayer's own estimate refuses it first (error 41 naming the reason)...
    const estimate = await by.estimateInvokeFee(calls).catch((e) => e);
    expect(estimate).toBeInstanceOf(RpcError);
    expect((estimate as RpcError).code).toBe(41);
    expect(JSON.stringify((estimate as RpcError).baseError)).toContain(reason);
    // ...and sent anyway, it reverts and nothing but the relayer's fee moves.
    const [signerBefore, recipientBefore, relayerBefore] = await balances(
      signer.address,
      recipient,
      by.address,
    );
    const receipt = await submit(by, calls);
    expect(receipt.execution_status).toBe('REVERTED');
    expect(receipt.revert_reason).toContain(reason);
    expect(receipt.events.map((e) => num.toHex(e.keys[0]))).toEqual([num.toHex(TRANSFER_EVENT)]);
    expect(await balances(signer.address, recipient, by.address)).toEqual([
      signerBefore,
      recipientBefore,
      relayerBefore - BigInt(receipt.actual_fee.amount),
    ]);
  }

  beforeAll(async () => {
    t = await startTestDevnet();
    relayer = t.account(1);
    recipient = t.devnet.predeployedAccounts[5].address;
    const fund = await t.account(0).execute(transferCall(userAddress, 10n ** 19n));
    await t.provider.waitForTransaction(fund.transaction_hash, WAIT);
    user = new Account({ provider: t.provider, address: userAddress, signer: key });
    const deployed = await user.deployAccount({
      classHash: ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata: CallData.compile([publicKey, 0]),
      addressSalt: publicKey,
    });
    await t.provider.waitForTransaction(deployed.transaction_hash, WAIT);
  });
  afterAll(() => t.devnet.close());

  describe('supports_interface answers as the real classes', () => {
    const supports = (address: string, id: string | bigint) =>
      src5.supportsInterface(t.provider, address, id);

    test('Argent 0.3.1: SRC-5, SRC-6, SNIP-9 version 1 and the legacy ERC-165 ids; not version 2', async () => {
      for (const id of [
        '0x3f918d17e5ee77373b56385708f855659a07f75997f365cf87748628532a055',
        '0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cd',
        constants.SNIP9_V1_INTERFACE_ID,
        '0x01ffc9a7',
        '0xa66bd575',
        '0x3943f10f',
      ])
        expect([id, await supports(userAddress, id)]).toEqual([id, true]);
      expect(await supports(userAddress, constants.SNIP9_V2_INTERFACE_ID)).toBe(false);
      expect(await supports(userAddress, '0x1234')).toBe(false);
      // The deprecated camelCase entry point answers a felt.
      const camel = (id: string) =>
        t.provider.callContract({
          contractAddress: userAddress,
          entrypoint: 'supportsInterface',
          calldata: [id],
        });
      expect(await camel(constants.SNIP9_V1_INTERFACE_ID)).toEqual(['0x1']);
      expect(await camel(constants.SNIP9_V2_INTERFACE_ID)).toEqual(['0x0']);
      expect(await user.getSnip9Version()).toBe(OutsideExecutionVersion.V1);
    });

    test('OpenZeppelin 1.0.0: SRC-5, SRC-6 and SNIP-9 version 2 only', async () => {
      const oz = t.devnet.predeployedAccounts[3].address;
      for (const id of [
        '0x3f918d17e5ee77373b56385708f855659a07f75997f365cf87748628532a055',
        '0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cd',
        constants.SNIP9_V2_INTERFACE_ID,
      ])
        expect([id, await supports(oz, id)]).toEqual([id, true]);
      for (const id of [constants.SNIP9_V1_INTERFACE_ID, '0x01ffc9a7', '0xa66bd575', '0x3943f10f'])
        expect([id, await supports(oz, id)]).toEqual([id, false]);
      expect(await t.account(3).getSnip9Version()).toBe(OutsideExecutionVersion.V2);
    });
  });

  describe('Argent 0.3.1: execute_from_outside (version 1)', () => {
    test('the allowed caller runs the calls; the real events; the nonce is used once', async () => {
      const amount = 12_345n;
      const outside = await signed(user, amount);
      expect(outside.version).toBe(OutsideExecutionVersion.V1);
      // The account's own view of what it expects signed equals starknet.js's SNIP-12 hash.
      const { outsideExecution: e } = outside;
      const data = outsideExecution.getTypedData(
        await t.provider.getChainId(),
        { caller: e.caller, execute_after: e.execute_after, execute_before: e.execute_before },
        e.nonce,
        [transferCall(recipient, amount)],
        OutsideExecutionVersion.V1,
      );
      const messageHash = typedData.getMessageHash(data, userAddress);
      const [onChainHash] = await t.provider.callContract({
        contractAddress: userAddress,
        entrypoint: 'get_outside_execution_message_hash',
        calldata: CallData.compile({ outside_execution: e }),
      });
      expect(num.toHex(onChainHash)).toBe(num.toHex(messageHash));
      expect(await user.isValidSnip9Nonce(e.nonce)).toBe(true);

      const [userBefore, recipientBefore, relayerBefore] = await balances(
        userAddress,
        recipient,
        relayer.address,
      );
      // The relayer signs as starknet.js does (its estimate, then its bounds). The outside
      // signature is checked, and costed, in the node's estimate too (SKIP_VALIDATE skips only
      // the relayer's own __validate__ check): the estimate is the fee then charged.
      const signedTx = await relayer.getSignedTransaction(
        outsideExecution.buildExecuteFromOutsideCall(outside),
        { tip: 0 },
      );
      const estimate = await rpc(t.devnet.rpcUrl, 'starknet_estimateFee', {
        request: [signedTx],
        simulation_flags: ['SKIP_VALIDATE'],
        block_id: 'pre_confirmed',
      });
      const [{ overall_fee: estimatedFee }] = estimate.result as { overall_fee: string }[];
      const sent = await rpc(t.devnet.rpcUrl, 'starknet_addInvokeTransaction', {
        invoke_transaction: signedTx,
      });
      const { transaction_hash } = sent.result as { transaction_hash: string };
      const receipt = (await t.provider.waitForTransaction(transaction_hash, WAIT))
        .value as unknown as ReceiptValue;
      expect(receipt.execution_status).toBe('SUCCEEDED');
      const [transfer, executed, fee] = receipt.events;
      expect(transfer).toEqual({
        from_address: num.toHex(STRK_TOKEN_ADDRESS),
        keys: [num.toHex(TRANSFER_EVENT), num.toHex(userAddress), num.toHex(recipient)],
        data: [num.toHex(amount), '0x0'],
      });
      // Argent's TransactionExecuted, keyed by the outside execution's message hash, with the
      // calls' results ([1 call, 1 felt, true]).
      expect(executed).toEqual({
        from_address: num.toHex(userAddress),
        keys: [num.toHex(TRANSACTION_EXECUTED), num.toHex(messageHash)],
        data: ['0x1', '0x1', '0x1'],
      });
      expect(fee.keys[1]).toBe(num.toHex(relayer.address));
      expect(receipt.events).toHaveLength(3);
      expect(BigInt(receipt.actual_fee.amount)).toBe(BigInt(estimatedFee));
      // The user pays nothing but the transfer; the relayer pays the fee.
      expect(await balances(userAddress, recipient, relayer.address)).toEqual([
        userBefore - amount,
        recipientBefore + amount,
        relayerBefore - BigInt(receipt.actual_fee.amount),
      ]);
      expect(await user.isValidSnip9Nonce(e.nonce)).toBe(false);
      expect(await t.provider.getNonceForAddress(userAddress)).toBe('0x1'); // deploy only

      // Replayed as it is, then with new calls under the same nonce: refused on chain.
      await expectRefused(user, outside, 'argent/duplicated-outside-nonce');
      const sameNonce = await signed(user, 1n, { nonce: num.toHex(e.nonce) });
      await expectRefused(user, sameNonce, 'argent/duplicated-outside-nonce');
    });

    test('another caller than the one signed is refused; the named caller may run it', async () => {
      const other = t.account(2);
      const outside = await signed(user, 7n, { caller: other.address });
      await expectRefused(user, outside, 'argent/invalid-caller');
      expect(await user.isValidSnip9Nonce(outside.outsideExecution.nonce)).toBe(true);
      const receipt = await submit(other, outsideExecution.buildExecuteFromOutsideCall(outside));
      expect(receipt.execution_status).toBe('SUCCEEDED');
    });

    test("'ANY_CALLER' lets any relayer submit it", async () => {
      const outside = await signed(user, 8n, { caller: 'ANY_CALLER' });
      expect(outside.outsideExecution.caller).toBe(constants.OutsideExecutionCallerAny);
      const before = await strkBalance(t.provider, recipient);
      const receipt = await submit(
        t.account(4),
        outsideExecution.buildExecuteFromOutsideCall(outside),
      );
      expect(receipt.execution_status).toBe('SUCCEEDED');
      expect(await strkBalance(t.provider, recipient)).toBe(before + 8n);
    });

    test('outside its time window it is refused: expired, and not yet valid until the clock gets there', async () => {
      const expired = await signed(user, 9n, { after: -7200, before: -60 });
      await expectRefused(user, expired, 'argent/invalid-timestamp');
      const early = await signed(user, 10n, { after: 600, before: 7200 });
      await expectRefused(user, early, 'argent/invalid-timestamp');
      // The same signed execution runs once the chain's clock is inside its window.
      await rpc(t.devnet.rpcUrl, 'devnet_increaseTime', { time: 1200 });
      const receipt = await submit(relayer, outsideExecution.buildExecuteFromOutsideCall(early));
      expect(receipt.execution_status).toBe('SUCCEEDED');
    });

    test('an altered call is refused and leaves the nonce usable', async () => {
      const outside = await signed(user, 11n);
      const [call] = outside.outsideExecution.calls;
      const altered: OutsideTransaction = {
        ...outside,
        outsideExecution: {
          ...outside.outsideExecution,
          calls: [{ ...call, calldata: CallData.compile([recipient, 1_000_000n, 0]) }],
        },
      };
      await expectRefused(user, altered, 'argent/invalid-owner-sig');
      // Another recipient, the same amount: still not what was signed.
      const redirected: OutsideTransaction = {
        ...outside,
        outsideExecution: {
          ...outside.outsideExecution,
          calls: [{ ...call, calldata: CallData.compile([relayer.address, 11n, 0]) }],
        },
      };
      await expectRefused(user, redirected, 'argent/invalid-owner-sig');
      // A refused attempt reverts whole: the nonce is unused and the real one still runs.
      expect(await user.isValidSnip9Nonce(outside.outsideExecution.nonce)).toBe(true);
      const receipt = await submit(relayer, outsideExecution.buildExecuteFromOutsideCall(outside));
      expect(receipt.execution_status).toBe('SUCCEEDED');
    });

    test('bad signatures are refused: another key, another chain, another account, a wrong length', async () => {
      const impostor = new Account({
        provider: t.provider,
        address: userAddress,
        signer: stark.randomAddress(),
      });
      await expectRefused(user, await signed(impostor, 12n), 'argent/invalid-owner-sig');

      const outside = await signed(user, 13n);
      const e = outside.outsideExecution;
      const signFor = async (chainId: string, account: string) =>
        new Signer(key).signMessage(
          outsideExecution.getTypedData(
            chainId,
            { caller: e.caller, execute_after: e.execute_after, execute_before: e.execute_before },
            e.nonce,
            [transferCall(recipient, 13n)],
            OutsideExecutionVersion.V1,
          ),
          account,
        );
      const otherChain = await signFor(constants.StarknetChainId.SN_MAIN, userAddress);
      await expectRefused(user, { ...outside, signature: otherChain }, 'argent/invalid-owner-sig');
      const otherAccount = await signFor(await t.provider.getChainId(), relayer.address);
      await expectRefused(
        user,
        { ...outside, signature: otherAccount },
        'argent/invalid-owner-sig',
      );
      const [r, s] = stark.formatSignature(outside.signature);
      await expectRefused(
        user,
        { ...outside, signature: [r, s, r] },
        'argent/invalid-signature-length',
      );
      // No guardian: a second signer pair is refused too.
      await expectRefused(
        user,
        { ...outside, signature: [r, s, r, s] },
        'argent/invalid-guardian-sig',
      );
    });

    test('a multicall back into the account is refused, as in __validate__', async () => {
      const { execute_after, execute_before } = await window(-3600, 3600);
      const outside = await user.getOutsideTransaction(
        { caller: relayer.address, execute_after, execute_before },
        [
          transferCall(recipient, 1n),
          { contractAddress: userAddress, entrypoint: 'get_owner', calldata: [] },
        ],
      );
      await expectRefused(user, outside, 'argent/no-multicall-to-self');
    });
  });

  describe('OpenZeppelin 1.0.0: execute_from_outside_v2 (version 2)', () => {
    let oz: Account;
    beforeAll(() => {
      oz = t.account(6);
    });

    test('the allowed caller runs the calls; the nonce is used once', async () => {
      const outside = await signed(oz, 21n);
      expect(outside.version).toBe(OutsideExecutionVersion.V2);
      const [ozBefore, recipientBefore] = await balances(oz.address, recipient);
      const sent = await relayer.executeFromOutside(outside);
      const receipt = (await t.provider.waitForTransaction(sent.transaction_hash, WAIT))
        .value as unknown as ReceiptValue;
      expect(receipt.execution_status).toBe('SUCCEEDED');
      // The SRC9 component emits nothing of its own: the transfer, then the relayer's fee.
      expect(receipt.events.map((e) => [e.from_address, e.keys])).toEqual([
        [
          num.toHex(STRK_TOKEN_ADDRESS),
          [num.toHex(TRANSFER_EVENT), num.toHex(oz.address), num.toHex(recipient)],
        ],
        [
          num.toHex(STRK_TOKEN_ADDRESS),
          [num.toHex(TRANSFER_EVENT), num.toHex(relayer.address), expect.any(String)],
        ],
      ]);
      expect(await balances(oz.address, recipient)).toEqual([
        ozBefore - 21n,
        recipientBefore + 21n,
      ]);
      expect(await oz.isValidSnip9Nonce(outside.outsideExecution.nonce)).toBe(false);
      await expectRefused(oz, outside, 'SRC9: duplicated nonce');
    });

    test('caller, time window and signature are checked with the SRC9 errors', async () => {
      await expectRefused(
        oz,
        await signed(oz, 22n, { caller: t.devnet.predeployedAccounts[2].address }),
        'SRC9: invalid caller',
      );
      await expectRefused(
        oz,
        await signed(oz, 23n, { after: 3600, before: 7200 }),
        'SRC9: now <= execute_after',
      );
      await expectRefused(
        oz,
        await signed(oz, 24n, { after: -7200, before: -3600 }),
        'SRC9: now >= execute_before',
      );
      const outside = await signed(oz, 25n);
      const [call] = outside.outsideExecution.calls;
      await expectRefused(
        oz,
        {
          ...outside,
          outsideExecution: {
            ...outside.outsideExecution,
            calls: [{ ...call, calldata: CallData.compile([recipient, 26n, 0]) }],
          },
        },
        'SRC9: invalid signature',
      );
      const impostor = new Account({
        provider: t.provider,
        address: oz.address,
        signer: stark.randomAddress(),
      });
      await expectRefused(oz, await signed(impostor, 27n), 'SRC9: invalid signature');
      expect(await oz.isValidSnip9Nonce(outside.outsideExecution.nonce)).toBe(true);
    });

    test('the trace shows the account asking its own is_valid_signature', async () => {
      const outside = await signed(oz, 28n);
      const sent = await relayer.executeFromOutside(outside);
      await t.provider.waitForTransaction(sent.transaction_hash, WAIT);
      const trace = (await t.provider.getTransactionTrace(sent.transaction_hash)) as unknown as {
        execute_invocation: {
          calls: {
            entry_point_selector: string;
            calls: { entry_point_selector: string; contract_address: string }[];
          }[];
        };
      };
      const [fromOutside] = trace.execute_invocation.calls;
      expect(fromOutside.entry_point_selector).toBe(
        hash.getSelectorFromName('execute_from_outside_v2'),
      );
      expect(fromOutside.calls.map((c) => [c.contract_address, c.entry_point_selector])).toEqual([
        [num.toHex(oz.address), hash.getSelectorFromName('is_valid_signature')],
        [num.toHex(STRK_TOKEN_ADDRESS), hash.getSelectorFromName('transfer')],
      ]);
    });
  });
});
