/**
 * The Starknet JSON-RPC versions the snap speaks (@l2wallet/starknet-protocol, the one list the
 * dapp client answers to wallet_supportedSpecs too). A node is asked `starknet_specVersion` once
 * per network per snap execution, before its first answer is used; any other version is a clear,
 * non-retryable error on every method that needs the node.
 */
import { SUPPORTED_SPEC_VERSIONS } from '@l2wallet/starknet-protocol';
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

/** The supported versions as the snap names them: any patch of each. */
const SUPPORTED = SUPPORTED_SPEC_VERSIONS.map((version) => `${version}.x`);

/** What differs between the supported versions, as far as the snap's requests go. */
export type SpecSupport = {
  version: string;
  /** 0.10: `starknet_getEvents` takes a list of addresses; 0.9: one address per filter. */
  eventAddressList: boolean;
};

export function specSupport(version: unknown): SpecSupport | undefined {
  const match = typeof version === 'string' ? /^(\d+\.\d+)\.\d+/u.exec(version.trim()) : null;
  if (!match || !(SUPPORTED_SPEC_VERSIONS as readonly string[]).includes(match[1])) {
    return undefined;
  }
  const minor = Number(match[1].split('.')[1]);
  return { version: String(version).trim(), eventAddressList: minor >= 10 };
}

export function unsupportedSpecVersion(host: string, version: unknown): Error {
  const found =
    typeof version === 'string' && version.length <= 40 ? version : 'an unknown version';
  return new ResourceUnavailableError(
    `The Starknet node (${host}) speaks JSON-RPC ${found}; the snap supports ${SUPPORTED.join(' and ')}. Point the snap at a node (or a versioned path such as /rpc/v0_10) that serves one of these.`,
    {
      retryable: false,
      specVersion: found,
      supportedSpecVersions: SUPPORTED,
    },
  );
}
