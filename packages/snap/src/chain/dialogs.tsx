/**
 * Confirmation screens of the chain methods. Amounts are shown in STRK with the FRI value.
 */
import { Banner, Box, Divider, Heading, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import type { Network } from '../starknet/networks';
import { Field, Title } from '../ui/components';
import { TransactionFields, type TransactionFieldsView } from '../ui/transactionFields';
import type { DecodedCall } from '../starknet/abi';
import { formatStrk } from '../starknet/units';

const FeeRows = ({ maxFee, overallFee }: { maxFee: bigint; overallFee?: bigint }): JSXElement => (
  <Box>
    {overallFee === undefined ? null : (
      <Field label="Estimated fee" value={`${formatStrk(overallFee)} (${overallFee} FRI)`} />
    )}
    <Field label="Maximum fee" value={`${formatStrk(maxFee)} (${maxFee} FRI)`} />
  </Box>
);

export const DeployAccountScreen = ({
  address,
  network,
  maxFee,
  overallFee,
}: {
  address: string;
  network: Network;
  maxFee: bigint;
  overallFee?: bigint;
}): JSXElement => (
  <Box>
    <Title title="Deploy account" subtitle="Deploy this Starknet account contract on chain." />
    <Field label="Account" value={address} />
    <Field label="Network" value={network.name} />
    <Divider />
    <FeeRows maxFee={maxFee} overallFee={overallFee} />
  </Box>
);

export const ExecuteScreen = ({
  sender,
  network,
  calls,
  fields,
  includeDeploy,
}: {
  sender: string;
  network: Network;
  calls: DecodedCall[];
  fields: TransactionFieldsView;
  includeDeploy: boolean;
}): JSXElement => (
  <Box>
    <Title title="Execute transaction" subtitle="Only approve transactions from sites you trust." />
    <Field label="Sender" value={sender} />
    <Field label="Network" value={network.name} />
    {includeDeploy ? (
      <Banner title="Account deployment included" severity="info">
        <Text>
          This account is not deployed yet: it is deployed first, in its own transaction. The
          maximum fee covers both.
        </Text>
      </Banner>
    ) : null}
    <Divider />
    {/* Every call and every value is shown: the user signs all of them. */}
    {calls.map((call, index) => (
      <Box>
        <Heading size="sm">{`Call ${index + 1} of ${calls.length}: ${call.entrypoint}`}</Heading>
        <Field label="Contract" value={call.contractAddress} />
        {call.namesFrom === 'site' ? (
          <Text>
            Argument names and types below were supplied by the site, not read from the chain.
          </Text>
        ) : null}
        {call.namesFrom === 'chain' ? (
          <Text>Argument names and types read from the contract's class on chain.</Text>
        ) : null}
        {call.args.length === 0 ? <Text>No calldata</Text> : null}
        {call.args.map((arg) => (
          <Field label={arg.label} value={arg.value} />
        ))}
      </Box>
    ))}
    <TransactionFields fields={fields} />
  </Box>
);
