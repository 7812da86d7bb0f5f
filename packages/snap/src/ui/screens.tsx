/**
 * The dialogs of the network, the private key and the watch list.
 */
import type { Erc20Token } from '@l2wallet/starknet-protocol';
import { Banner, Box, Copyable, Heading, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import type { Network } from '../starknet/networks';
import { Field, Title } from './components';

export const SwitchNetworkScreen = ({ from, to }: { from: Network; to: Network }): JSXElement => (
  <Box>
    <Title title="Switch network" subtitle="This site asks to switch the Starknet network." />
    <Field label="From" value={`${from.name} (${from.chainId})`} />
    <Field label="To" value={`${to.name} (${to.chainId})`} />
  </Box>
);

export const RevealKeyConfirmScreen = ({ address }: { address: string }): JSXElement => (
  <Box>
    <Title title="Show private key?" />
    <Banner title="Keep it secret" severity="warning">
      <Text>Anyone with this key controls the account and its funds. Never share it.</Text>
    </Banner>
    <Field label="Account" value={address} />
  </Box>
);

export const PrivateKeyScreen = ({
  address,
  privateKey,
}: {
  address: string;
  privateKey: string;
}): JSXElement => (
  <Box>
    <Heading>Private key</Heading>
    <Field label="Account" value={address} />
    <Copyable value={privateKey} sensitive />
  </Box>
);

/** `old -> new` when an update changes the value, else the value marked unchanged. */
function changed(before: string | undefined, after: string): string {
  if (before === undefined) {
    return after;
  }
  return before === after ? `${after} (unchanged)` : `${before} -> ${after}`;
}

export const AddTokenScreen = ({
  token,
  network,
  existing,
  nameFromChain,
}: {
  token: Erc20Token;
  network: Network;
  /** The watched token this request would replace, if any. */
  existing?: Erc20Token | undefined;
  /** Whether the name is the contract's (else the site's: the contract has no readable name). */
  nameFromChain: boolean;
}): JSXElement => (
  <Box>
    <Title
      title={existing ? 'Update token' : 'Add token'}
      subtitle={
        existing
          ? 'This site asks to change a watched token (old -> new).'
          : 'This site asks to watch a token.'
      }
    />
    <Text>{`Symbol and decimals are read from the token contract on ${network.name}${
      nameFromChain ? ', and so is the name' : "; the name is the site's (the contract has none)"
    }.`}</Text>
    <Field label="Network" value={network.name} />
    <Field label="Address" value={token.address} />
    <Field label="Name" value={changed(existing?.name, token.name)} />
    <Field label="Symbol" value={changed(existing?.symbol, token.symbol)} />
    <Field
      label="Decimals"
      value={changed(
        existing === undefined ? undefined : String(existing.decimals),
        String(token.decimals),
      )}
    />
    {token.logo || existing?.logo ? (
      <Field
        label="Logo"
        value={changed(
          existing === undefined ? undefined : (existing.logo ?? '(none)'),
          token.logo ?? '(none)',
        )}
      />
    ) : null}
  </Box>
);
