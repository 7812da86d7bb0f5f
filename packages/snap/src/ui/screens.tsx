import {
  Banner,
  Box,
  Copyable,
  Divider,
  Heading,
  Text,
  type JSXElement,
} from '@metamask/snaps-sdk/jsx';

import type { Network } from '../starknet/networks';
import type { Erc20Token } from '../state/schema';
import type { OutsideExecutionView } from '../starknet/typedData/outsideExecution';
import { formatTimestamp } from '../starknet/units';
import { Field, Fields, Title } from './components';
import { TransactionFields, type TransactionFieldsView } from './transactionFields';

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

/** Typed data: the members of its declared types only, each shown from its type. */
export const SignMessageScreen = ({
  signer,
  network,
  domain,
  primaryType,
  message,
}: {
  signer: string;
  network: Network;
  domain: [string, string][];
  primaryType: string;
  message: [string, string][];
}): JSXElement => (
  <Box>
    <Title title="Sign message" subtitle="Only sign messages from sites you trust." />
    <Field label="Signer" value={signer} />
    <Field label="Network" value={network.name} />
    <Divider />
    <Heading size="sm">Domain</Heading>
    <Fields rows={domain} />
    <Divider />
    <Heading size="sm">{`Message (${primaryType})`}</Heading>
    <Fields rows={message} />
  </Box>
);

const windowText = (after: bigint, before: bigint): [string, string][] => [
  ['Valid after', formatTimestamp(after)],
  ['Valid until', formatTimestamp(before)],
];

/** A SNIP-9 outside execution, shown like the transaction it authorises. */
export const OutsideExecutionScreen = ({
  signer,
  network,
  execution,
}: {
  signer: string;
  network: Network;
  execution: OutsideExecutionView;
}): JSXElement => (
  <Box>
    <Title
      title="Authorise calls from your account"
      subtitle={`An outside execution (SNIP-9, version ${execution.version}): a signed permission to run these calls from your account.`}
    />
    <Banner title="Anyone holding this signature can run these calls" severity="danger">
      <Text>
        {`Whoever holds this signature can run the calls below on your behalf, from your account, ${execution.caller ? `when submitted by ${execution.caller}` : 'submitted by anyone'}, until ${formatTimestamp(execution.executeBefore)}. Sign only if you trust this site with that.`}
      </Text>
    </Banner>
    <Field label="Account" value={signer} />
    <Field label="Network" value={network.name} />
    <Field label="Allowed caller" value={execution.caller ?? 'anyone (ANY_CALLER)'} />
    <Fields rows={windowText(execution.executeAfter, execution.executeBefore)} />
    <Field label="Nonce" value={execution.nonce} />
    <Divider />
    {execution.calls.map((call, index) => (
      <Box>
        <Heading size="sm">{`Call ${index + 1} of ${execution.calls.length}: ${call.functionName}`}</Heading>
        <Field
          label="Contract"
          value={call.token ? `${call.to} (${call.token.symbol}, ${call.token.name})` : call.to}
        />
        <Field label="Function" value={`${call.functionName} (selector ${call.selector})`} />
        <Fields rows={call.args} />
      </Box>
    ))}
  </Box>
);

export type DisplayedCall = { contractAddress: string; entrypoint: string; calldata: string[] };

/** Every call with its full calldata: nothing the signature covers is left out. */
export const CallsView = ({ calls }: { calls: DisplayedCall[] }): JSXElement => (
  <Box>
    {calls.map((call, index) => (
      <Box>
        <Heading size="sm">{`Call ${index + 1} of ${calls.length}: ${call.entrypoint}`}</Heading>
        <Field label="Contract" value={call.contractAddress} />
        <Field
          label="Calldata"
          value={call.calldata.length > 0 ? call.calldata.join(', ') : '(none)'}
        />
      </Box>
    ))}
  </Box>
);

export const SignTransactionScreen = ({
  signer,
  network,
  calls,
  fields,
}: {
  signer: string;
  network: Network;
  calls: DisplayedCall[];
  fields: TransactionFieldsView;
}): JSXElement => (
  <Box>
    <Title title="Sign transaction" subtitle="The signature lets this site send the transaction." />
    <Field label="Signer" value={signer} />
    <Field label="Network" value={network.name} />
    <Divider />
    <CallsView calls={calls} />
    <TransactionFields fields={fields} />
  </Box>
);

/**
 * A v3 declare: signed for the site (l2_signDeclareTransaction) or sent by the snap
 * (l2_declareContract). Both show the class hashes and every hashed field.
 */
export const DeclareScreen = ({
  sends,
  signer,
  network,
  classHash,
  compiledClassHash,
  fields,
}: {
  /** True when the snap sends the declaration itself, false when the site gets a signature. */
  sends: boolean;
  signer: string;
  network: Network;
  classHash: string;
  compiledClassHash: string;
  fields: TransactionFieldsView;
}): JSXElement => (
  <Box>
    {sends ? (
      <Title title="Declare contract" subtitle="Register this contract class on chain." />
    ) : (
      <Title
        title="Sign declare transaction"
        subtitle="The signature lets this site declare a contract class."
      />
    )}
    <Field label={sends ? 'Sender' : 'Signer'} value={signer} />
    <Field label="Network" value={network.name} />
    <Field label="Class hash" value={classHash} />
    <Field label="Compiled class hash" value={compiledClassHash} />
    <TransactionFields fields={fields} />
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
