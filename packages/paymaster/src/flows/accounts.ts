/**
 * Which SNIP-9 version a user's account signs: asked of a deployed account as starknet.js asks
 * (supports_interface, version 2 first), read from the class's entry points for an account not
 * deployed yet. Answers are kept per class hash: the class decides.
 */
import type { StarknetNode } from '../node/client';
import { supportsInterface } from '../node/contracts';
import { SELECTORS } from '../protocol/calls';
import { type Felt, toHex } from '../protocol/felt';
import { SNIP9_INTERFACE_IDS, type Snip9Version } from '../protocol/outsideExecution';
import { errors } from '../errors';

export class AccountClasses {
  private readonly byClass = new Map<Felt, Snip9Version | null>();

  constructor(private readonly node: StarknetNode) {}

  /** The class hash of a deployed contract, or undefined when nothing is deployed there. */
  classHashAt(address: Felt): Promise<Felt | undefined> {
    return this.node.classHashAt(toHex(address));
  }

  /** The version a deployed account implements (155 when none). */
  async versionOfDeployed(address: Felt, classHash: Felt): Promise<Snip9Version> {
    let version = this.byClass.get(classHash);
    if (version === undefined) {
      version = (await supportsInterface(this.node, address, SNIP9_INTERFACE_IDS[2]))
        ? 2
        : (await supportsInterface(this.node, address, SNIP9_INTERFACE_IDS[1]))
          ? 1
          : null;
      this.byClass.set(classHash, version);
    }
    if (version === null) {
      throw errors.classHashNotSupported(
        `the account ${toHex(address)} (class ${toHex(classHash)}) does not implement SNIP-9 outside execution`,
      );
    }
    return version;
  }

  /** The version an account of a declared class will implement (159 undeclared, 155 none). */
  async versionOfClass(classHash: Felt): Promise<Snip9Version> {
    let version = this.byClass.get(classHash);
    if (version === undefined) {
      const selectors = await this.node.classEntryPoints(toHex(classHash));
      if (!selectors) {
        throw errors.invalidClassHash(
          `the class ${toHex(classHash)} is not declared on this network`,
        );
      }
      version = selectors.includes(SELECTORS.executeFromOutsideV2)
        ? 2
        : selectors.includes(SELECTORS.executeFromOutside)
          ? 1
          : null;
      this.byClass.set(classHash, version);
    }
    if (version === null) {
      throw errors.classHashNotSupported(
        `accounts of class ${toHex(classHash)} do not implement SNIP-9 outside execution`,
      );
    }
    return version;
  }
}
