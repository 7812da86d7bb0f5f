/**
 * Every member of a v3 transaction that enters its hash besides the calls or the class: shown in
 * every signing and sending dialog (l2_signTransaction, l2_signDeclareTransaction,
 * l2_executeTxn, l2_declareContract), in full, so nothing signed goes unseen.
 */
import { Box, Divider, Heading, type JSXElement } from '@metamask/snaps-sdk/jsx';

import { maxChargeOf, RESOURCES, type ResourceBounds } from '../starknet/fees';
import { formatStrk } from '../starknet/units';
import { Field } from './components';

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

const strk = (fri: bigint): string => `${formatStrk(fri)} (${fri} FRI)`;
const daMode = (mode: 0 | 1 | undefined): string => (mode === 1 ? 'L2' : 'L1');

export const TransactionFields = ({ fields }: { fields: TransactionFieldsView }): JSXElement => {
  const maxCharge = fields.maxCharge ?? maxChargeOf(fields.resourceBounds, fields.tip);
  return (
    <Box>
      <Divider />
      <Heading size="sm">Fee and signed details</Heading>
      {fields.estimatedFee === undefined ? null : (
        <Field label="Estimated fee" value={strk(fields.estimatedFee)} />
      )}
      <Field label="Maximum fee (total)" value={strk(maxCharge)} />
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
};
