/**
 * Issue 16, from a dapp origin: every dialog names the site; sites are granted, never assumed;
 * typed data is bound to the request's network and shows only what is signed; a SNIP-9 outside
 * execution is shown like a transaction with its warning. Typed data is built with starknet.js
 * (outsideExecution.getTypedData) and signatures checked with @scure/starknet.
 */
import { installSnap } from '@metamask/snaps-jest';
import { outsideExecution, typedData, type TypedData } from 'starknet';

import {
  asAlert,
  asConfirmation,
  createGrantedAccount,
  DAPP_ORIGIN,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  jsonParams,
  MAINNET,
  OTHER_SRP,
  pad,
  responseOf,
  resultOf,
  TESTNET,
  verifyWithScure,
} from '../harness/snap';
import { STRK_TOKEN } from '@l2wallet/testkit';

import { REV0_TYPED_DATA, REV1_TYPED_DATA } from '../fixtures/typedData';

/** What the user sees as the site: the origin's host, port included. */
const SITE = 'dapp.example:8443';
const ORIGIN = `https://${SITE}`;
const OTHER_ORIGIN = 'https://other.example';
const STRK = STRK_TOKEN;
const RECIPIENT = pad(0xabc123n);
/** 'ANY_CALLER' as a short string (SNIP-9): anyone may submit the execution. */
const ANY_CALLER = '0x414e595f43414c4c4552';

type Snap = Awaited<ReturnType<typeof installSnap>>;

/** A snap in which ORIGIN created (and so was granted) the accounts at `indexes`. */
async function snapForDapp(indexes: number[] = [0]): Promise<Snap> {
  const snap = await installSnap();
  for (const index of indexes) {
    resultOf(await createGrantedAccount(snap, index, ORIGIN));
  }
  return snap;
}

describe('dialogs name the requesting site', () => {
  // The token dialog (it needs a node to read the token) is checked in methods/addErc20Token.e2e.test.ts.
  it('in the grant, sign, network and private-key dialogs', async () => {
    expect(DAPP_ORIGIN).toMatch(/^https:\/\//u);
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await installSnap();
    const texts: string[] = [];
    const approve = async (pending: ReturnType<Snap['request']>): Promise<void> => {
      const ui = asConfirmation(await pending.getInterface());
      texts.push(dialogText(ui.content));
      await ui.ok();
    };

    const creating = snap.request({
      origin: ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 0 },
    });
    await approve(creating);
    resultOf(await creating);

    const signing = snap.request({
      origin: ORIGIN,
      method: 'l2_signMessage',
      params: { typedDataMessage: REV1_TYPED_DATA, signerAddress: account.address },
    });
    await approve(signing);
    resultOf(await signing);

    const switching = snap.request({
      origin: ORIGIN,
      method: 'l2_switchNetwork',
      params: { chainId: MAINNET },
    });
    await approve(switching);
    expect(resultOf(await switching)).toBe(true);

    const revealing = snap.request({
      origin: ORIGIN,
      method: 'l2_displayPrivateKey',
      params: { userAddress: account.address },
    });
    await approve(revealing);
    const alert = asAlert(await revealing.getInterface());
    texts.push(dialogText(alert.content));
    await alert.ok();
    resultOf(await revealing);

    expect(texts).toHaveLength(5);
    for (const text of texts) {
      expect(text).toMatch(new RegExp(`Requested by\\n${SITE.replace('.', '\\.')}`, 'u'));
    }
  });
});

describe('sites are granted, not assumed', () => {
  it("a new site's account creation shows a grant dialog, and a decline stores nothing", async () => {
    const account = await expectedAccount(DEFAULT_SRP, 3);
    const snap = await installSnap();
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 3 },
    });
    const ui = asConfirmation(await pending.getInterface());
    const text = dialogText(ui.content);
    expect(text).toContain(SITE);
    expect(text).toContain('Create an account for this site?');
    expect(text).toContain('#3');
    expect(text).toContain(account.address);
    expect(text).toContain('none yet: this is the first time this site asks');
    await ui.cancel();
    expectError(await pending, 4001, 'User rejected the request.');

    // Nothing stored: not an account of the snap, no grant (the next request asks again), and the
    // home page lists no account.
    expectError(
      await snap.request({
        method: 'l2_extractPublicKey',
        params: { userAddress: account.address },
      }),
      -32602,
      /is not an account of this snap/u,
    );
    const again = snap.request({
      origin: ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 3 },
    });
    const second = asConfirmation(await again.getInterface());
    expect(dialogText(second.content)).toContain('none yet');
    await second.cancel();
    expectError(await again, 4001);
    const home = dialogText((await snap.onHomePage()).getInterface().content);
    expect(home).toMatch(/No account on this network yet/u);
    expect(home).not.toContain(SITE);
  });

  it('a granted index needs no dialog; a new index and another site each ask first', async () => {
    const first = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await snapForDapp([0]);
    // Granted: no dialog (the request resolves without one).
    expect(
      resultOf(
        await snap.request({
          origin: ORIGIN,
          method: 'l2_createAccount',
          params: { addressIndex: 0 },
        }),
      ),
    ).toEqual({ address: first.address, addressIndex: 0 });
    expect(
      resultOf(
        await snap.request({
          origin: ORIGIN,
          method: 'l2_extractPublicKey',
          params: { userAddress: first.address },
        }),
      ),
    ).toBe(first.publicKey);

    // A new index asks, naming what the site already holds and the address it would get.
    const second = await expectedAccount(DEFAULT_SRP, 1);
    const creating = snap.request({ origin: ORIGIN, method: 'l2_createAccount' });
    const createUi = asConfirmation(await creating.getInterface());
    expect(dialogText(createUi.content)).toMatch(/Already allowed\n#0/u);
    expect(dialogText(createUi.content)).toContain('#1 (a new one)');
    expect(dialogText(createUi.content)).toContain(second.address);
    await createUi.ok();
    expect(resultOf<{ addressIndex: number }>(await creating).addressIndex).toBe(1);

    // Issue 24 changed this answer: another site naming account 0 used to get a grant dialog,
    // which appeared only for the user's own addresses (an oracle). Now it gets the same error
    // as for a stranger's address, with no dialog ...
    const stranger = await expectedAccount(OTHER_SRP, 0);
    const refusals = [];
    for (const userAddress of [first.address, stranger.address]) {
      const response = responseOf(
        await snap.request({
          origin: OTHER_ORIGIN,
          method: 'l2_extractPublicKey',
          params: { userAddress },
        }),
      );
      expect(JSON.stringify(response)).not.toContain(userAddress.slice(2));
      refusals.push(response);
    }
    expect(refusals[0]).toEqual(refusals[1]);
    expect(refusals[0].error?.code).toBe(-32602);
    // ... and asks for it by index: the dialog names the site, the address and who else has it.
    const asking = snap.request({
      origin: OTHER_ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 0 },
    });
    const askUi = asConfirmation(await asking.getInterface());
    expect(dialogText(askUi.content)).toContain('other.example');
    expect(dialogText(askUi.content)).toContain(first.address);
    expect(dialogText(askUi.content)).toContain(`Other sites allowed\n${SITE}`);
    expect(dialogText(askUi.content)).toContain('Already your account on\nTestnet');
    await askUi.cancel();
    expectError(await asking, 4001);
    // Declining stored nothing: still refused, without a dialog.
    expectError(
      await snap.request({
        origin: OTHER_ORIGIN,
        method: 'l2_extractPublicKey',
        params: { userAddress: first.address },
      }),
      -32602,
    );
  });

  it('a recovery scan from a site without a grant asks first; a decline stores nothing', async () => {
    const snap = await installSnap();
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_recoverAccounts',
      params: { startScanIndex: 0, maxScanned: 5, maxMissed: 5 },
    });
    const ui = asConfirmation(await pending.getInterface());
    expect(dialogText(ui.content)).toContain(SITE);
    expect(dialogText(ui.content)).toContain('#0 to #4');
    // Every address of the range is shown (issue 24: the dialog shows what it grants).
    for (const index of [0, 1, 2, 3, 4]) {
      expect(dialogText(ui.content)).toContain((await expectedAccount(DEFAULT_SRP, index)).address);
    }
    await ui.cancel();
    expectError(await pending, 4001);
    const home = dialogText((await snap.onHomePage()).getInterface().content);
    expect(home).toMatch(/No account on this network yet/u);
  });

  it('caps one recovery call at 20 accounts', async () => {
    const snap = await installSnap();
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_recoverAccounts',
        params: { maxScanned: 21 },
      }),
      -32602,
      /"maxScanned"/u,
    );
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_recoverAccounts',
        params: { startScanIndex: 2 ** 31 - 1, maxScanned: 2 },
      }),
      -32602,
      /"maxScanned" reaches past the last address index 2147483647/u,
    );
  });
});

describe('typed data is bound to the network', () => {
  const signer = async (): Promise<{ snap: Snap; address: string }> => {
    const snap = await snapForDapp([0]);
    return { snap, address: (await expectedAccount(DEFAULT_SRP, 0)).address };
  };

  it.each([
    [
      'Mainnet typed data on a Testnet request',
      { ...REV1_TYPED_DATA.domain, chainId: 'SN_MAIN' },
      undefined,
      /expected "0x534e5f5345504f4c4941" or "SN_SEPOLIA".*got "SN_MAIN" \(Mainnet\)/u,
    ],
    [
      'Mainnet typed data (hex) on a Testnet request',
      { ...REV1_TYPED_DATA.domain, chainId: MAINNET },
      undefined,
      /got "0x534e5f4d41494e" \(Mainnet\)/u,
    ],
    [
      'Testnet typed data on a Mainnet request',
      REV1_TYPED_DATA.domain,
      MAINNET,
      /expected "0x534e5f4d41494e" or "SN_MAIN"/u,
    ],
    ['a numeric chainId', { ...REV1_TYPED_DATA.domain, chainId: 1 }, undefined, /got 1/u],
  ])(
    'refuses %s with -32602 naming domain.chainId, no dialog',
    async (_label, domain, chainId, message) => {
      const { snap, address } = await signer();
      const response = await snap.request({
        origin: ORIGIN,
        method: 'l2_signMessage',
        params: {
          typedDataMessage: { ...REV1_TYPED_DATA, domain },
          signerAddress: address,
          ...(chainId ? { chainId } : {}),
        },
      });
      expectError(response, -32602, /"typedDataMessage\.domain\.chainId"/u);
      expectError(response, -32602, message);
    },
  );

  it('refuses typed data without chainId (value or domain type) with -32602, no dialog', async () => {
    const { snap, address } = await signer();
    const { chainId: _dropped, ...domainWithout } = REV0_TYPED_DATA.domain;
    const withoutValue = { ...REV0_TYPED_DATA, domain: domainWithout };
    const withoutType = {
      ...withoutValue,
      types: {
        ...REV0_TYPED_DATA.types,
        StarkNetDomain: REV0_TYPED_DATA.types.StarkNetDomain.filter((m) => m.name !== 'chainId'),
      },
    };
    for (const data of [withoutValue, withoutType]) {
      expectError(
        await snap.request({
          origin: ORIGIN,
          method: 'l2_signMessage',
          params: { typedDataMessage: data, signerAddress: address },
        }),
        -32602,
        /"typedDataMessage\.domain\.chainId" is required: .*replayed on another network/u,
      );
    }
  });

  it('signs when the domain names the request network (SN_MAIN on a Mainnet request)', async () => {
    const { snap, address } = await signer();
    const data = { ...REV1_TYPED_DATA, domain: { ...REV1_TYPED_DATA.domain, chainId: 'SN_MAIN' } };
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_signMessage',
      params: { typedDataMessage: data, signerAddress: address, chainId: 'SN_MAIN' },
    });
    const ui = asConfirmation(await pending.getInterface());
    expect(dialogText(ui.content)).toContain('Mainnet');
    await ui.ok();
    const signature = resultOf<string>(await pending).split(',');
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const hash = typedData.getMessageHash(data as unknown as TypedData, address);
    expect(verifyWithScure(account, hash, signature)).toBe(true);
  });
});

describe('typed data shows only what is signed', () => {
  it.each([
    [
      'a message member not in its type',
      { ...REV0_TYPED_DATA, message: { ...REV0_TYPED_DATA.message, amount: '1000000' } },
      /"typedDataMessage\.message\.amount" is not a member of type "Mail"/u,
    ],
    [
      'a nested member not in its type',
      {
        ...REV0_TYPED_DATA,
        message: {
          ...REV0_TYPED_DATA.message,
          to: { ...REV0_TYPED_DATA.message.to, note: 'pay me' },
        },
      },
      /"typedDataMessage\.message\.to\.note" is not a member of type "Person"/u,
    ],
    [
      'a domain member not in the domain type',
      { ...REV1_TYPED_DATA, domain: { ...REV1_TYPED_DATA.domain, verifyingContract: '0x1' } },
      /"typedDataMessage\.domain\.verifyingContract" is not a member of type "StarknetDomain"/u,
    ],
  ])('refuses %s with -32602, no dialog', async (_label, data, message) => {
    const snap = await snapForDapp([0]);
    const { address } = await expectedAccount(DEFAULT_SRP, 0);
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_signMessage',
        params: { typedDataMessage: data, signerAddress: address },
      }),
      -32602,
      message,
    );
  });

  it('renders each member by its declared type', async () => {
    const snap = await snapForDapp([0]);
    const { address } = await expectedAccount(DEFAULT_SRP, 0);
    const data = {
      types: {
        StarknetDomain: REV1_TYPED_DATA.types.StarknetDomain,
        Order: [
          { name: 'token', type: 'ContractAddress' },
          { name: 'amount', type: 'u256' },
          { name: 'payment', type: 'TokenAmount' },
          { name: 'action', type: 'selector' },
          { name: 'deadline', type: 'timestamp' },
          { name: 'owner', type: 'Person' },
        ],
        Person: [
          { name: 'name', type: 'shortstring' },
          { name: 'wallet', type: 'ContractAddress' },
        ],
      },
      primaryType: 'Order',
      domain: REV1_TYPED_DATA.domain,
      message: {
        // The same token written without its leading zero, as felts often are.
        token: STRK.replace(/^0x0/u, '0x'),
        amount: { low: '0x1', high: '0x1' },
        payment: { token_address: STRK, amount: { low: '1500000000000000000', high: '0' } },
        action: 'transfer',
        deadline: '1767225600',
        owner: { name: 'alice', wallet: '0x123' },
      },
    };
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_signMessage',
      params: { typedDataMessage: data, signerAddress: address },
    });
    const text = dialogText(asConfirmation(await pending.getInterface()).content);
    expect(text).toContain(`token (ContractAddress)\n${STRK} (STRK)`);
    expect(text).toContain(`amount (u256)\n${(1n << 128n) + 1n}`);
    expect(text).toContain('payment.amount (u256)\n1.5 STRK (1500000000000000000)');
    expect(text).toContain('action (selector)\ntransfer');
    expect(text).toContain('deadline (timestamp)\n2026-01-01T00:00:00Z');
    expect(text).toContain(`owner.wallet (ContractAddress)\n${pad(0x123n)}`);
    expect(text).toContain('owner.name (shortstring)\nalice');
  });
});

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

  it.each([
    ['version 1', '1' as const],
    ['version 2', '2' as const],
  ])('%s is shown like a transaction, with the warning', async (_label, version) => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await snapForDapp([0]);
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
    const snap = await snapForDapp([0]);
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
    const snap = await snapForDapp([0]);
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

describe('signing dialogs show every hashed field', () => {
  it('l2_signTransaction: total maximum fee in STRK, tip, paymaster and deployment data, nonce, nothing cut', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await snapForDapp([0]);
    const longFelt = `0x${'7'.repeat(62)}`;
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_signTransaction',
      params: {
        address: account.address,
        chainId: TESTNET,
        transactions: [
          { contractAddress: STRK, entrypoint: 'transfer', calldata: [RECIPIENT, longFelt, '0'] },
        ],
        transactionsDetail: {
          nonce: '0x2a',
          tip: '7',
          paymasterData: ['0x1234', '0x5678'],
          accountDeploymentData: ['0x9abc'],
          resourceBounds: {
            l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
            l2_gas: { max_amount: '1000000', max_price_per_unit: '1000000000000' },
            l1_data_gas: { max_amount: '100', max_price_per_unit: '1000000000' },
          },
        },
      },
    });
    const ui = asConfirmation(await pending.getInterface());
    const text = dialogText(ui.content);
    // 1e6 * 1e12 + 100 * 1e9 + a tip of 7 on each of the 1e6 L2 gas units = 1000000100007000000 FRI.
    expect(text).toContain('Maximum fee (total)\n1.000000100007 STRK (1000000100007000000 FRI)');
    expect(text).toContain('Nonce\n42');
    expect(text).toContain('Tip\n7 FRI per L2 gas unit');
    expect(text).toContain('Paymaster data\n0x1234, 0x5678');
    expect(text).toContain('Account deployment data\n0x9abc');
    expect(text).toContain(longFelt);
    expect(text).toContain(SITE);
    await ui.cancel();
    expectError(await pending, 4001);
  });
});

describe('the home page lists the sites allowed, and revokes them', () => {
  it('shows the grant with its accounts; Revoke forgets it and the site asks again', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await snapForDapp([0]);
    const home = await snap.onHomePage();
    const page = home.getInterface();
    const text = dialogText(page.content);
    expect(text).toContain('Sites you allowed');
    expect(text).toContain(`Site\n${SITE}\nOrigin\n${ORIGIN}\nAccounts\n#0`);
    await page.clickElement(`revoke:${ORIGIN}`);
    const after = dialogText(home.getInterface().content);
    expect(after).not.toContain(SITE);
    expect(after).toContain('No site may use your accounts yet');

    // Revoked: the account is refused like any other (issue 24: no dialog for an address), and
    // the site asks for it again by index.
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_extractPublicKey',
        params: { userAddress: account.address },
      }),
      -32602,
      /is not an account of this snap that this site may use/u,
    );
    const asking = snap.request({
      origin: ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 0 },
    });
    const ui = asConfirmation(await asking.getInterface());
    expect(dialogText(ui.content)).toContain('Create an account for this site?');
    await ui.cancel();
    expectError(await asking, 4001);
  });
});
