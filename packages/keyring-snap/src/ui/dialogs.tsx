import type { ComponentOrElement } from '@metamask/snaps-sdk';
import { Address, Box, Divider, Heading, Row, Text } from '@metamask/snaps-sdk/jsx';

import type { ChainConfig } from '../evm/chainConfig';

export async function confirm(content: ComponentOrElement): Promise<boolean> {
  const result = await snap.request({
    method: 'snap_dialog',
    params: { type: 'confirmation', content },
  });
  return result === true;
}

export function ExportAccountScreen(props: {
  origin: string;
  address: `0x${string}`;
  type: string;
}) {
  return (
    <Box>
      <Heading>Export private key</Heading>
      <Text>
        {`${props.origin} asks for the private key of this account. Anyone who has it controls the account and its funds.`}
      </Text>
      <Row label="Requested by">
        <Text>{props.origin}</Text>
      </Row>
      <Row label="Account">
        <Address address={props.address} />
      </Row>
      <Row label="Type">
        <Text>{props.type}</Text>
      </Row>
      {props.type === 'eip155:erc4337' ? (
        <Text>
          This is the smart account's owner key. Do not import it as a plain account anywhere: a
          32-byte message signed with it there can authorize this smart account's operations.
        </Text>
      ) : null}
    </Box>
  );
}

const FIELDS: ReadonlyArray<[keyof ChainConfig, string]> = [
  ['rpcUrl', 'RPC URL'],
  ['bundlerUrl', 'Bundler URL'],
  ['entryPoint', 'Entry point'],
  ['factory', 'Account factory'],
  ['paymasterUrl', 'Paymaster service'],
];

export function ChainConfigScreen(props: {
  origin: string;
  before: ChainConfig | null;
  after: ChainConfig;
}) {
  return (
    <Box>
      <Heading>{`Change chain ${props.after.chainId}`}</Heading>
      <Row label="Requested by">
        <Text>{props.origin}</Text>
      </Row>
      <Divider />
      {FIELDS.map(([key, label]) => (
        <Box>
          <Text>{label}</Text>
          <Text>{`${String(props.before?.[key] ?? '(none)')} -> ${String(props.after[key] ?? '(none)')}`}</Text>
        </Box>
      ))}
    </Box>
  );
}
