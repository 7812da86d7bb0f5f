/**
 * Who may call what. MetaMask (origin `metamask`) drives accounts and signing; the companion
 * site(s) manage accounts but never submit a signing request. Both columns follow the table in
 * keyring-api's docs/security.md; MetaMask's own bridge (@metamask/eth-snap-keyring) also calls
 * the three methods in BRIDGE_METHODS, which the table predates (docs/security.md#keyring-snap).
 */
import { KeyringRpcMethod } from '@metamask/keyring-api';

/**
 * The sites allowed by endowment:rpc and endowment:keyring: the build variable
 * KEYRING_ALLOWED_ORIGINS (comma-separated), which snap.config.ts also writes into the manifest.
 */
export const SITE_ORIGINS: readonly string[] = (
  process.env.KEYRING_ALLOWED_ORIGINS ?? 'http://localhost:8000'
)
  .split(',')
  .map((origin) => origin.trim())
  .filter((origin) => origin.length > 0);

export const METAMASK_ORIGIN = 'metamask';

/** security.md, "MetaMask Origin" column. */
const METAMASK_TABLE: readonly string[] = [
  KeyringRpcMethod.ListAccounts,
  KeyringRpcMethod.GetAccount,
  KeyringRpcMethod.FilterAccountChains,
  KeyringRpcMethod.DeleteAccount,
  KeyringRpcMethod.ListRequests,
  KeyringRpcMethod.GetRequest,
  KeyringRpcMethod.SubmitRequest,
  KeyringRpcMethod.RejectRequest,
];

/**
 * What the bridge calls beyond the table: SnapKeyring.createAccount (MetaMask's own account
 * creation flows), setSelectedAccounts (on every account switch) and resolveAccountAddress
 * (to route a dapp's signing request to a snap account).
 */
export const BRIDGE_METHODS: readonly string[] = [
  KeyringRpcMethod.CreateAccount,
  KeyringRpcMethod.SetSelectedAccounts,
  KeyringRpcMethod.ResolveAccountAddress,
];

/** security.md, "Dapp Origin" column: everything but submitRequest. */
const SITE_METHODS: readonly string[] = [
  KeyringRpcMethod.ListAccounts,
  KeyringRpcMethod.GetAccount,
  KeyringRpcMethod.CreateAccount,
  KeyringRpcMethod.FilterAccountChains,
  KeyringRpcMethod.UpdateAccount,
  KeyringRpcMethod.DeleteAccount,
  KeyringRpcMethod.ExportAccount,
  KeyringRpcMethod.ListRequests,
  KeyringRpcMethod.GetRequest,
  KeyringRpcMethod.ApproveRequest,
  KeyringRpcMethod.RejectRequest,
];

export function isSiteOrigin(origin: string): boolean {
  return SITE_ORIGINS.includes(origin);
}

export function mayCallKeyring(origin: string, method: string): boolean {
  if (origin === METAMASK_ORIGIN) {
    return METAMASK_TABLE.includes(method) || BRIDGE_METHODS.includes(method);
  }
  return isSiteOrigin(origin) && SITE_METHODS.includes(method);
}
