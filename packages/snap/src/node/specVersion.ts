/**
 * The Starknet JSON-RPC versions the snap speaks. A node is asked `starknet_specVersion` once
 * per network per snap execution, before its first answer is used; any other version is a
 * clear, non-retryable error on every method that needs the node.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

export const SUPPORTED_SPEC_VERSIONS = ['0.9.x', '0.10.x'] as const;

/** What differs between the supported versions, as far as the snap's requests go. */
export type SpecSupport = {
  version: string;
  /** 0.10: `starknet_getEvents` takes a list of addresses; 0.9: one address per filter. */
  eventAddressList: boolean;
};

export function specSupport(version: unknown): SpecSupport | undefined {
  const match = typeof version === 'string' ? /^0\.(\d+)\.\d+/u.exec(version.trim()) : null;
  const minor = match ? Number(match[1]) : NaN;
  if (minor !== 9 && minor !== 10) {
    return undefined;
  }
  return { version: String(version).trim(), eventAddressList: minor >= 10 };
}

export function unsupportedSpecVersion(host: string, version: unknown): Error {
  const found =
    typeof version === 'string' && version.length <= 40 ? version : 'an unknown version';
  return new ResourceUnavailableError(
    `The Starknet node (${host}) speaks JSON-RPC ${found}; the snap supports ${SUPPORTED_SPEC_VERSIONS.join(' and ')}. Point the snap at a node (or a versioned path such as /rpc/v0_10) that serves one of these.`,
    {
      retryable: false,
      specVersion: found,
      supportedSpecVersions: [...SUPPORTED_SPEC_VERSIONS],
    },
  );
}
