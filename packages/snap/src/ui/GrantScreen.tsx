import { Banner, Box, Divider, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import type { Network } from '../starknet/networks';
import { Field, Title } from './components';

type Account = { addressIndex: number; address: string };

/** What a site asks to be allowed: always by index, with the address each index names. */
export type GrantRequest =
  /** `isNew`: the index was picked as "a new account" (the site named none). */
  | { kind: 'use'; chainId: string; accounts: [Account]; isNew: boolean }
  | { kind: 'create'; chainId: string; accounts: [Account]; isNew: boolean; deploy: boolean }
  | { kind: 'recover'; chainId: string; accounts: Account[] };

/** An account as the dialog shows it: where the user already uses the address, who else may. */
export type ShownAccount = Account & { networks: string[]; otherSites: string[] };

const describeGranted = (indexes: number[]): string =>
  indexes.length === 0
    ? 'none yet: this is the first time this site asks'
    : indexes.map((index) => `#${index}`).join(', ');

const TITLES: Record<GrantRequest['kind'], string> = {
  use: 'Allow this site to use an account?',
  create: 'Create an account for this site?',
  recover: 'Let this site look for your accounts?',
};

const EVERY_NETWORK =
  'An account has the same address on every network: the site may use it on Mainnet and Testnet.';

function explanation(request: GrantRequest): string {
  switch (request.kind) {
    case 'use':
      return `The site will see this address and may ask to sign with it (each signature is still shown to you). ${EVERY_NETWORK}`;
    case 'create':
      return request.deploy
        ? `The account is derived from your secret phrase, shown to the site and deployed (the deployment and its fee are shown next). ${EVERY_NETWORK}`
        : `The account is derived from your secret phrase and shown to the site, which may then ask to sign with it. ${EVERY_NETWORK}`;
    case 'recover':
      return `The snap derives these accounts and checks them on chain. Those found are stored and shown to the site, which may then ask to sign with them. ${EVERY_NETWORK}`;
    default:
      return '';
  }
}

const AccountFields = ({
  account,
  isNew,
}: {
  account: ShownAccount;
  isNew: boolean;
}): JSXElement => (
  <Box>
    <Field
      label="Account"
      value={isNew ? `#${account.addressIndex} (a new one)` : `#${account.addressIndex}`}
    />
    <Field label="Address" value={account.address} />
    <Field
      label="Already your account on"
      value={account.networks.length > 0 ? account.networks.join(', ') : 'no network yet'}
    />
    <Field
      label="Other sites allowed"
      value={account.otherSites.length > 0 ? account.otherSites.join(', ') : 'none'}
    />
  </Box>
);

/** The grant dialog; dialogs.ts puts the requesting site above it. */
export const GrantScreen = ({
  request,
  network,
  accounts,
  alreadyGranted,
}: {
  request: GrantRequest;
  network: Network;
  accounts: ShownAccount[];
  alreadyGranted: number[];
}): JSXElement => (
  <Box>
    <Title title={TITLES[request.kind]} subtitle={explanation(request)} />
    <Field label="Network of this request" value={network.name} />
    {request.kind === 'recover' ? (
      <Field
        label="Accounts"
        value={`#${request.accounts[0]?.addressIndex ?? 0} to #${
          request.accounts[request.accounts.length - 1]?.addressIndex ?? 0
        } (${request.accounts.length} at most)`}
      />
    ) : null}
    {accounts.map((account) => (
      <Box>
        <Divider />
        <AccountFields account={account} isNew={request.kind !== 'recover' && request.isNew} />
      </Box>
    ))}
    <Divider />
    <Field label="Already allowed" value={describeGranted(alreadyGranted)} />
    <Banner title="Only allow sites you trust" severity="info">
      <Text>
        Sites you allow can tell your accounts are linked. You can revoke a site on the Starknet
        snap's home page.
      </Text>
    </Banner>
  </Box>
);
