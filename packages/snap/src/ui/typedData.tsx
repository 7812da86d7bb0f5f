/**
 * Typed-data dialogs (l2_signMessage): a message by its declared members, and a SNIP-9 outside
 * execution as the transaction it authorises.
 */
import { Banner, Box, Divider, Heading, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import type { Network } from '../starknet/networks';
import type { OutsideExecutionView } from '../starknet/typedData/outsideExecution';
import { formatTimestamp } from '../starknet/units';
import { Field, Fields, Title } from './components';
import { PreviewRows, type PreviewView } from './preview';
import { CallList } from './transaction';

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
  preview,
}: {
  signer: string;
  network: Network;
  execution: OutsideExecutionView;
  /** What the calls do to the account, simulated (flows/preview.ts). */
  preview: PreviewView;
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
    <PreviewRows preview={preview} />
    <Divider />
    <CallList
      calls={execution.calls.map((call) => ({
        name: call.functionName,
        contract: call.token ? `${call.to} (${call.token.symbol}, ${call.token.name})` : call.to,
        rows: [['Function', `${call.functionName} (selector ${call.selector})`], ...call.args],
      }))}
    />
  </Box>
);
