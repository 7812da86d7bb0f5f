import { Banner, Box, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import type { Network } from '../networks';
import { Field, Title } from '../ui/components';

/** What a site asks to be allowed. */
export type GrantRequest =
  | { kind: 'use'; chainId: string; addressIndex: number; address: string }
  /** A new account: its index and address when the site named the index. */
  | { kind: 'create'; chainId: string; addressIndex?: number; address?: string; deploy: boolean }
  | { kind: 'recover'; chainId: string; fromIndex: number; toIndex: number };

const describeGranted = (indexes: number[]): string =>
  indexes.length === 0
    ? 'none yet: this is the first time this site asks'
    : indexes.map((index) => `#${index}`).join(', ');

const TITLES: Record<GrantRequest['kind'], string> = {
  use: 'Allow this site to use an account?',
  create: 'Create an account for this site?',
  recover: 'Let this site look for your accounts?',
};

function explanation(request: GrantRequest): string {
  switch (request.kind) {
    case 'use':
      return 'The site will see this address and may ask to sign with it (each signature is still shown to you).';
    case 'create':
      return request.deploy
        ? 'A new account is derived from your secret phrase, shown to the site and deployed (the deployment and its fee are shown next).'
        : 'A new account is derived from your secret phrase and shown to the site, which may then ask to sign with it.';
    case 'recover':
      return 'The snap derives these accounts and checks them on chain. Those found are stored and shown to the site, which may then ask to sign with them.';
    default:
      return '';
  }
}

/** The grant dialog; ui/dialogs puts the requesting site above it. */
export const GrantScreen = ({
  request,
  network,
  alreadyGranted,
}: {
  request: GrantRequest;
  network: Network;
  alreadyGranted: number[];
}): JSXElement => (
  <Box>
    <Title title={TITLES[request.kind]} subtitle={explanation(request)} />
    <Field label="Network" value={network.name} />
    {request.kind === 'recover' ? (
      <Field
        label="Accounts"
        value={`#${request.fromIndex} to #${request.toIndex} (${request.toIndex - request.fromIndex + 1} at most)`}
      />
    ) : (
      <Field
        label="Account"
        value={request.addressIndex === undefined ? 'the next new one' : `#${request.addressIndex}`}
      />
    )}
    {request.kind !== 'recover' && request.address ? (
      <Field label="Address" value={request.address} />
    ) : null}
    <Field label="Already allowed" value={describeGranted(alreadyGranted)} />
    <Banner title="Only allow sites you trust" severity="info">
      <Text>
        Sites you allow can tell your accounts are linked. You can revoke a site on the Starknet
        snap's home page.
      </Text>
    </Banner>
  </Box>
);
