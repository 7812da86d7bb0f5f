/**
 * Who may call what (keyring-api docs/security.md). MetaMask (origin `metamask`) drives accounts
 * and signing; the companion site manages accounts but can never submit a signing request.
 */
import { KeyringRpcMethod } from '@metamask/keyring-api';

/** Must match endowment:keyring and endowment:rpc allowedOrigins in snap.manifest.json. */
export const SITE_ORIGINS: readonly string[] = ['http://localhost:8000'];

export const METAMASK_ORIGIN = 'metamask';

const METAMASK_METHODS: readonly string[] = [
  KeyringRpcMethod.ListAccounts,
  KeyringRpcMethod.GetAccount,
  KeyringRpcMethod.FilterAccountChains,
  KeyringRpcMethod.CreateAccount,
  KeyringRpcMethod.DeleteAccount,
  KeyringRpcMethod.SubmitRequest,
  KeyringRpcMethod.ListRequests,
  KeyringRpcMethod.GetRequest,
  KeyringRpcMethod.ApproveRequest,
  KeyringRpcMethod.RejectRequest,
  KeyringRpcMethod.SetSelectedAccounts,
  KeyringRpcMethod.ResolveAccountAddress,
];

const SITE_METHODS: readonly string[] = [
  KeyringRpcMethod.ListAccounts,
  KeyringRpcMethod.GetAccount,
  KeyringRpcMethod.CreateAccount,
  KeyringRpcMethod.UpdateAccount,
  KeyringRpcMethod.DeleteAccount,
  KeyringRpcMethod.FilterAccountChains,
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
    return METAMASK_METHODS.includes(method);
  }
  return isSiteOrigin(origin) && SITE_METHODS.includes(method);
}
