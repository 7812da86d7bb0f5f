/**
 * docs/security.md#starknet-snap, from a dapp origin: every dialog names the site; typed data is
 * bound to the request's network and shows only what is signed; signing dialogs show every hashed
 * field. The grant dialog, the home page's sites and SNIP-9 outside executions have their own files
 * (ui/GrantScreen, ui/HomeScreen, starknet/typedData/outsideExecution). Typed data is built with
 * starknet.js and signatures checked with @scure/starknet.
 */
import { installSnap } from '@metamask/snaps-jest';
import { typedData, type TypedData } from 'starknet';

import {
  asAlert,
  asConfirmation,
  DAPP_ORIGIN,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  MAINNET,
  pad,
  resultOf,
  TESTNET,
  verifyWithScure,
  PORTED_SITE as SITE,
  PORTED_SITE_ORIGIN as ORIGIN,
  snapForSite as snapForDapp,
} from '../harness/snap';
import { STRK_TOKEN } from '@l2wallet/testkit';

import { REV0_TYPED_DATA, REV1_TYPED_DATA } from '../fixtures/typedData';

const STRK = STRK_TOKEN;
const RECIPIENT = pad(0xabc123n);

type Snap = Awaited<ReturnType<typeof installSnap>>;

describe('dialogs name the requesting site', () => {
  // The token dialog (it needs a node to read the token) is checked in
  // methods/addErc20Token.e2e.test.ts.
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

describe('typed data is bound to the network', () => {
  // Refusals change nothing and signing stores nothing (no state write, dialog approved or not), so
  // the tests share one snap. None installs its own, which would stop it (snaps-jest runs one snap
  // at a time), so the order they run in does not matter.
  let shared: Promise<{ snap: Snap; address: string }>;
  beforeAll(() => {
    shared = (async () => {
      const snap = await snapForDapp([0]);
      return { snap, address: (await expectedAccount(DEFAULT_SRP, 0)).address };
    })();
    return shared;
  });
  const signer = async (): Promise<{ snap: Snap; address: string }> => shared;

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
  // The rows are refused before any dialog or state change: they share one snap. A describe of
  // their own keeps them together, so the test below, which installs its own snap (and so stops
  // this one), never runs between them, in any order.
  describe('members outside their type', () => {
    let snap: Snap;
    beforeAll(async () => {
      snap = await snapForDapp([0]);
    });

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
    // 1e6 * 1e12 + 100 * 1e9 + a tip of 7 on each of the 1e6 L2 gas units = 1000000100007000000
    // FRI.
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
