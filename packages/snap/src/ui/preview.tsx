/**
 * The preview of a transaction's effect, above its calls in every sending dialog: the balance
 * change per token and the allowances set, from a simulation of the exact transaction (see
 * flows/preview.ts); a warning when it reverts; "Preview unavailable" and why when the node could
 * not simulate it.
 */
import { Banner, Box, Heading, Text, type JSXElement } from '@metamask/snaps-sdk/jsx';

import { Field } from './components';

export type PreviewView = {
  /** Set when there is no preview: why. */
  unavailable?: string;
  /** Set when the simulation reverts: the decoded reason. */
  revertReason?: string;
  /** What approving a reverting transaction does, when it is not "sent anyway". */
  ifApproved?: string;
  /** Per token: its name and the signed change ("−1.5 STRK"). */
  changes: { token: string; amount: string }[];
  /** "lets 0x… spend 10 USDC". */
  approvals: string[];
  /** The most the account may pay: "up to 0.003 STRK". */
  fee: string;
  /** The tip it pays, when there is one. */
  tip?: string;
};

export const PreviewRows = ({ preview }: { preview: PreviewView }): JSXElement => (
  <Box>
    <Heading size="sm">Estimated changes (simulated from the transaction you sign)</Heading>
    {preview.unavailable === undefined ? null : (
      <Banner title="Preview unavailable" severity="info">
        <Text>{`No preview: ${preview.unavailable}. Check the calls below before you approve.`}</Text>
      </Banner>
    )}
    {preview.revertReason === undefined ? null : (
      <Banner title="This transaction is expected to fail" severity="warning">
        <Text>{`The simulation reverted: ${preview.revertReason}. ${preview.ifApproved ?? 'If you approve, it is sent anyway, fails on chain and still pays its fee.'}`}</Text>
      </Banner>
    )}
    {preview.changes.map((change) => (
      <Field label={change.token} value={change.amount} />
    ))}
    {preview.approvals.map((approval) => (
      <Field label="Approval" value={approval} />
    ))}
    {preview.unavailable === undefined &&
    preview.revertReason === undefined &&
    preview.changes.length === 0 ? (
      <Text>No token balance changes besides the fee.</Text>
    ) : null}
    <Field label="Fee" value={preview.fee} />
    {preview.tip === undefined ? null : <Field label="Tip" value={preview.tip} />}
  </Box>
);
