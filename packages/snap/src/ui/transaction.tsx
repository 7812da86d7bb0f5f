/**
 * Every transaction dialog: sign (l2_signTransaction, l2_signDeclareTransaction), send
 * (l2_executeTxn, l2_declareContract) and deploy (l2_createAccount with deploy: true). Calls are
 * drawn by CallList and fees by FeeRows, here only; every member of a v3 transaction that enters
 * its hash is shown in full, so nothing signed goes unseen.
 */
import { Banner, Box, Divider, Heading, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import type { DecodedCall } from '../starknet/abi';
import { maxChargeOf, RESOURCES, type ResourceBounds } from '../starknet/fees';
import type { Network } from '../starknet/networks';
import { formatStrk, formatTimestamp, formatUnits } from '../starknet/units';
import { Field, Fields, Title } from './components';
import { PreviewRows, type PreviewView } from './preview';

/** A call as a dialog shows it: its heading's name, its contract, a note, its rows. */
export type ShownCall = {
  name: string;
  contract: string;
  /** Where the argument names come from, when the calldata was decoded. */
  note?: string;
  rows: [label: string, value: string][];
};

/** Every call with every value: the user signs all of them. */
export const CallList = ({ calls }: { calls: ShownCall[] }): JSXElement => (
  <Box>
    {calls.map((call, index) => (
      <Box>
        <Heading size="sm">{`Call ${index + 1} of ${calls.length}: ${call.name}`}</Heading>
        <Field label="Contract" value={call.contract} />
        {call.note ? <Text>{call.note}</Text> : null}
        {call.rows.length === 0 ? <Text>No calldata</Text> : null}
        <Fields rows={call.rows} />
      </Box>
    ))}
  </Box>
);

/** A call with its raw calldata in one row (l2_signTransaction). */
export function rawCall(call: {
  contractAddress: string;
  entrypoint: string;
  calldata: readonly string[];
}): ShownCall {
  return {
    name: call.entrypoint,
    contract: call.contractAddress,
    rows: [['Calldata', call.calldata.length > 0 ? call.calldata.join(', ') : '(none)']],
  };
}

const NAMES_FROM: Record<'site' | 'chain', string> = {
  site: 'Argument names and types below were supplied by the site, not read from the chain.',
  chain: "Argument names and types read from the contract's class on chain.",
};

/** A call decoded by an ABI (its named arguments) or not (every calldata felt). */
export function decodedCall(call: DecodedCall): ShownCall {
  return {
    name: call.entrypoint,
    contract: call.contractAddress,
    ...(call.namesFrom ? { note: NAMES_FROM[call.namesFrom] } : {}),
    rows: call.args.map(({ label, value }) => [label, value]),
  };
}

const strk = (fri: bigint): string => `${formatStrk(fri)} (${fri} FRI)`;

/** The fee of what a dialog sends or signs: the estimate when there is one, and the maximum. */
export const FeeRows = ({
  estimatedFee,
  maxCharge,
}: {
  estimatedFee?: bigint | undefined;
  maxCharge: bigint;
}): JSXElement => (
  <Box>
    {estimatedFee === undefined ? null : <Field label="Estimated fee" value={strk(estimatedFee)} />}
    <Field label="Maximum fee (total)" value={strk(maxCharge)} />
  </Box>
);

/** A transaction relayed by the network's paymaster, its fee paid in a gas token. */
export type RelayedFeeView = {
  symbol: string;
  decimals: number;
  /** The gas token transfer the account signs: the most the fee can be. */
  maxFee: bigint;
  /** The paymaster's estimate, in the gas token. */
  estimatedFee?: bigint | undefined;
  paymasterHost: string;
  /** The one account that may submit it. */
  relayer: string;
  /** Where the fee transfer goes (the relayer, or the paymaster's forwarder). */
  recipient: string;
  validUntil: bigint;
  /** The relayer deploys the account in the same transaction. */
  deploys: boolean;
  /** The SNIP-29 tip asked of the paymaster, when the site gave one. */
  tip?: string | undefined;
};

/**
 * The fee of a relayed transaction and who submits it: what the account signs besides the calls.
 */
export const RelayedFeeRows = ({ fee }: { fee: RelayedFeeView }): JSXElement => {
  const amount = (value: bigint): string =>
    `${formatUnits(value, fee.decimals, fee.symbol)} (${value})`;
  return (
    <Box>
      <Divider />
      <Heading size="sm">Fee and relayer</Heading>
      <Text>{`Fee paid in ${fee.symbol}: up to ${formatUnits(fee.maxFee, fee.decimals, fee.symbol)} (through ${fee.paymasterHost})`}</Text>
      {fee.estimatedFee === undefined ? null : (
        <Field label="Estimated fee" value={amount(fee.estimatedFee)} />
      )}
      <Field label="Maximum fee (total)" value={amount(fee.maxFee)} />
      {fee.tip === undefined ? null : <Field label="Tip" value={fee.tip} />}
      <Field label="Fee goes to" value={fee.recipient} />
      <Field label="Submitted by (relayer)" value={fee.relayer} />
      <Field label="Valid until" value={formatTimestamp(fee.validUntil)} />
      <Text>
        {`A relayer submits this transaction and pays its STRK fee. Your account signs an outside execution (SNIP-9): the calls above, then a transfer of up to ${formatUnits(fee.maxFee, fee.decimals, fee.symbol)} to pay for it, which only this relayer can submit${fee.deploys ? '; it deploys your account first, in the same transaction' : ''}.`}
      </Text>
    </Box>
  );
};

export type TransactionFieldsView = {
  /** The nonce signed; a text when the snap reads it from the node at sending time. */
  nonce: bigint | string;
  resourceBounds: ResourceBounds;
  tip: bigint;
  paymasterData: readonly string[];
  accountDeploymentData: readonly string[];
  nonceDataAvailabilityMode?: 0 | 1;
  feeDataAvailabilityMode?: 0 | 1;
  /** The query version makes a signature only fee estimation accepts. */
  version?: string;
  /** When the dialog's total covers more than this transaction (an account deployment first). */
  maxCharge?: bigint;
  estimatedFee?: bigint;
};

const daMode = (mode: 0 | 1 | undefined): string => (mode === 1 ? 'L2' : 'L1');

/** Every member of a v3 transaction that enters its hash besides the calls or the class. */
export const TransactionFields = ({ fields }: { fields: TransactionFieldsView }): JSXElement => (
  <Box>
    <Divider />
    <Heading size="sm">Fee and signed details</Heading>
    <FeeRows
      estimatedFee={fields.estimatedFee}
      maxCharge={fields.maxCharge ?? maxChargeOf(fields.resourceBounds, fields.tip)}
    />
    <Field label="Nonce" value={fields.nonce.toString()} />
    <Field label="Tip" value={`${fields.tip} FRI per L2 gas unit`} />
    {RESOURCES.map((name) => (
      <Field
        label={`Max ${name}`}
        value={`${fields.resourceBounds[name].max_amount} @ ${fields.resourceBounds[name].max_price_per_unit} FRI`}
      />
    ))}
    {fields.paymasterData.length > 0 ? (
      <Field label="Paymaster data" value={fields.paymasterData.join(', ')} />
    ) : null}
    {fields.accountDeploymentData.length > 0 ? (
      <Field label="Account deployment data" value={fields.accountDeploymentData.join(', ')} />
    ) : null}
    <Field
      label="Data availability (nonce, fee)"
      value={`${daMode(fields.nonceDataAvailabilityMode)}, ${daMode(fields.feeDataAvailabilityMode)}`}
    />
    {fields.version && fields.version !== '0x3' ? (
      <Field label="Version" value={`${fields.version} (query: valid for fee estimates only)`} />
    ) : null}
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
  calls: ShownCall[];
  fields: TransactionFieldsView;
}): JSXElement => (
  <Box>
    <Title title="Sign transaction" subtitle="The signature lets this site send the transaction." />
    <Field label="Signer" value={signer} />
    <Field label="Network" value={network.name} />
    <Divider />
    <CallList calls={calls} />
    <TransactionFields fields={fields} />
  </Box>
);

/** A relayed send the paymaster refused to build: no fee, nothing to sign yet. */
export type RefusedFeeView = {
  /** The paymaster's refusal, in its words (it names the paymaster). */
  refusal: string;
};

/**
 * The fee part of a sending dialog: v3 fields the account signs, a relayed transaction's, or
 * the paymaster's refusal to build one.
 */
export type SendFeeView =
  { fields: TransactionFieldsView } | { relayed: RelayedFeeView } | { refused: RefusedFeeView };

const SendFee = ({ fee }: { fee: SendFeeView }): JSXElement => {
  if ('refused' in fee) {
    return (
      <Box>
        <Divider />
        <Heading size="sm">Fee and relayer</Heading>
        <Text>{fee.refused.refusal}</Text>
        <Text>
          Nothing has been signed. If you approve, the paymaster is asked again; if it builds the
          transaction then, its fee and relayer are shown to you before anything is signed.
        </Text>
      </Box>
    );
  }
  return 'relayed' in fee ? (
    <RelayedFeeRows fee={fee.relayed} />
  ) : (
    <TransactionFields fields={fee.fields} />
  );
};

export const ExecuteScreen = ({
  sender,
  network,
  calls,
  fee,
  includeDeploy,
  preview,
}: {
  sender: string;
  network: Network;
  calls: ShownCall[];
  fee: SendFeeView;
  includeDeploy: boolean;
  preview?: PreviewView | undefined;
}): JSXElement => (
  <Box>
    <Title title="Execute transaction" subtitle="Only approve transactions from sites you trust." />
    <Field label="Sender" value={sender} />
    <Field label="Network" value={network.name} />
    {includeDeploy ? (
      <Banner title="Account deployment included" severity="info">
        <Text>
          {'fields' in fee
            ? 'This account is not deployed yet: it is deployed first, in its own transaction. The maximum fee covers both.'
            : 'This account is not deployed yet: the relayer deploys it in the same transaction. The maximum fee covers both.'}
        </Text>
      </Banner>
    ) : null}
    <Divider />
    {preview ? <PreviewRows preview={preview} /> : null}
    <CallList calls={calls} />
    <SendFee fee={fee} />
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

/**
 * The account's deployment: its fee in STRK, or relayed by the paymaster with the one call a
 * relayed deployment carries (shown, as every signed call is).
 */
export const DeployAccountScreen = ({
  address,
  network,
  fee,
  calls,
  preview,
}: {
  address: string;
  network: Network;
  fee: { maxCharge: bigint; estimatedFee?: bigint | undefined } | { relayed: RelayedFeeView };
  calls?: ShownCall[] | undefined;
  preview?: PreviewView | undefined;
}): JSXElement => (
  <Box>
    <Title title="Deploy account" subtitle="Deploy this Starknet account contract on chain." />
    <Field label="Account" value={address} />
    <Field label="Network" value={network.name} />
    <Divider />
    {preview ? <PreviewRows preview={preview} /> : null}
    {calls ? <CallList calls={calls} /> : null}
    {'relayed' in fee ? (
      <RelayedFeeRows fee={fee.relayed} />
    ) : (
      <FeeRows estimatedFee={fee.estimatedFee} maxCharge={fee.maxCharge} />
    )}
  </Box>
);
