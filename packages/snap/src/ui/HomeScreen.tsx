import {
  Box,
  Button,
  Divider,
  Heading,
  Row,
  Section,
  Text,
  type JSXElement,
} from '@metamask/snaps-sdk/jsx';

import type { SiteGrant, TransactionRecord } from '../state';
import type { Network } from '../starknet/networks';
import { formatUnits } from '../starknet/units';
import { siteName } from './site';

export type AccountOverview = {
  address: string;
  addressIndex: number;
  /** undefined when the node could not be read. */
  strk?: bigint | undefined;
  eth?: bigint | undefined;
  deployed?: boolean | undefined;
};

/** A site the user allowed an account, or that added a token, as the home page lists it. */
export type SiteOverview = {
  origin: string;
  /** The grant, when the site holds one (Revoke removes it). */
  grant?: SiteGrant;
  /** The tokens it added, with the network each is watched on. */
  tokens: { symbol: string; address: string; network: string }[];
};

/** What the home page shows (flows/home.ts reads it). */
export type HomeOverview = {
  network: Network;
  accounts: AccountOverview[];
  transactions: TransactionRecord[];
  /** Why balances or transactions are missing, in words for the user. */
  notes: string[];
  /** The sites the user allowed an account (oldest first), then those that only added tokens. */
  sites: SiteOverview[];
};

/** The name of a site's Revoke button: the prefix, then the origin (src/index.ts onUserInput). */
export const REVOKE_PREFIX = 'revoke:';

/** STRK and ETH both have 18 decimals. */
const formatToken = (amount: bigint | undefined, symbol: string): string =>
  amount === undefined ? 'unknown' : formatUnits(amount, 18, symbol);

const when = (timestamp: number): string =>
  timestamp > 0 ? new Date(timestamp * 1000).toISOString().replace('.000Z', 'Z') : 'pending';

export const HomeScreen = ({ overview }: { overview: HomeOverview }): JSXElement => (
  <Box>
    <Heading>Starknet accounts</Heading>
    <Text>{`Network: ${overview.network.name} (${overview.network.chainId})`}</Text>
    {overview.notes.map((note) => (
      <Text>{note}</Text>
    ))}
    {overview.accounts.length === 0 ? (
      <Text>No account on this network yet: a dapp can create one with l2_createAccount.</Text>
    ) : null}
    {overview.accounts.map((account) => (
      <Section>
        <Heading>{`Account ${account.addressIndex}`}</Heading>
        <Row label="Address">
          <Text>{account.address}</Text>
        </Row>
        <Row label="STRK">
          <Text>{formatToken(account.strk, 'STRK')}</Text>
        </Row>
        <Row label="ETH">
          <Text>{formatToken(account.eth, 'ETH')}</Text>
        </Row>
        <Row label="Deployed">
          <Text>
            {account.deployed === undefined ? 'unknown' : account.deployed ? 'yes' : 'not yet'}
          </Text>
        </Row>
      </Section>
    ))}
    {overview.accounts.length > 0 ? <Divider /> : null}
    {overview.accounts.length > 0 ? <Heading>Last transactions</Heading> : null}
    {overview.accounts.length > 0 && overview.transactions.length === 0 ? (
      <Text>No transactions in the last 30 days.</Text>
    ) : null}
    {overview.transactions.map((record) => (
      <Section>
        <Row label="Hash">
          <Text>{record.txnHash}</Text>
        </Row>
        <Row label="Type">
          <Text>{`${record.txnType}${record.contractFuncName ? `: ${record.contractFuncName}` : ''}`}</Text>
        </Row>
        <Row label="Status">
          <Text>
            {record.failureReason ? `${record.status} (${record.failureReason})` : record.status}
          </Text>
        </Row>
        <Row label="Time">
          <Text>{when(record.timestamp)}</Text>
        </Row>
      </Section>
    ))}
    <Divider />
    <Heading>Sites you allowed</Heading>
    {overview.sites.length === 0 ? (
      <Text>No site may use your accounts yet: a site asks the first time.</Text>
    ) : null}
    {overview.sites.map(({ origin, grant, tokens }) => (
      <Section>
        <Row label="Site">
          <Text>{siteName(origin)}</Text>
        </Row>
        <Row label="Origin">
          <Text>{origin}</Text>
        </Row>
        <Row label="Accounts">
          <Text>
            {grant === undefined || grant.addressIndexes.length === 0
              ? 'none'
              : grant.addressIndexes.map((index) => `#${index}`).join(', ')}
          </Text>
        </Row>
        <Row label="Since">
          <Text>{grant && grant.grantedAt > 0 ? when(grant.grantedAt) : 'unknown'}</Text>
        </Row>
        <Row label="Tokens added">
          <Text>
            {tokens.length === 0
              ? 'none'
              : tokens
                  .map((token) => `${token.symbol} ${token.address} (${token.network})`)
                  .join(', ')}
          </Text>
        </Row>
        {grant ? <Button name={`${REVOKE_PREFIX}${origin}`}>Revoke</Button> : null}
      </Section>
    ))}
  </Box>
);
