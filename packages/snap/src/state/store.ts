/**
 * The one way to read and write snap state. Every read-modify-write goes through `update`, which
 * runs under a single mutex, so concurrent requests never lose each other's records.
 */
import type { Json } from '@metamask/snaps-sdk';

import { migrateState } from './migrations';
import type { SnapState } from './schema';
import { Mutex } from '../mutex';

/** A deep copy of JSON state: callers never share (or change) the kept copy. */
const copyOf = (state: SnapState): SnapState => JSON.parse(JSON.stringify(state)) as SnapState;

export class SnapStateStore {
  readonly #mutex = new Mutex();

  /**
   * The state as last read or written by this execution. Only the snap writes its state, so the
   * copy stays true: every signing request (which checks the site's grant) then costs no
   * snap_manageState round trip and decryption.
   */
  #kept: SnapState | undefined;

  async #load(): Promise<SnapState> {
    if (!this.#kept) {
      const stored = await snap.request({
        method: 'snap_manageState',
        params: { operation: 'get' },
      });
      this.#kept = migrateState(stored);
    }
    return copyOf(this.#kept);
  }

  async #save(state: SnapState): Promise<void> {
    await snap.request({
      method: 'snap_manageState',
      params: { operation: 'update', newState: state as unknown as Record<string, Json> },
    });
    this.#kept = copyOf(state);
  }

  /** A snapshot for reading. Do not modify it: changes are not saved. */
  async read(): Promise<SnapState> {
    return this.#load();
  }

  /**
   * What `pick` reads of the state, without copying the whole state first (a copy grows with the
   * records): `pick` must not modify the state and must return values of its own.
   */
  async pick<T>(pick: (state: SnapState) => T): Promise<T> {
    if (!this.#kept) {
      await this.#load();
    }
    return pick(this.#kept as SnapState);
  }

  /**
   * Runs `inspect` on the current state under the lock, saving nothing: no update can land
   * between what it reads and what it decides (e.g. picking an index no one holds yet).
   */
  async inspect<T>(inspect: (state: SnapState) => T): Promise<T> {
    return this.#mutex.runExclusive(async () => inspect(await this.#load()));
  }

  /**
   * Runs `mutate` on the current state under the lock and saves the result. If `mutate` throws,
   * nothing is saved. Never ask the user (dialogs) inside `mutate`: it would hold the lock.
   */
  async update<T>(mutate: (state: SnapState) => T | Promise<T>): Promise<T> {
    return this.#mutex.runExclusive(async () => {
      const state = await this.#load();
      const result = await mutate(state);
      await this.#save(state);
      return result;
    });
  }
}

export const stateStore = new SnapStateStore();
