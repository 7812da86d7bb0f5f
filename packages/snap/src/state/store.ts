/**
 * The one way to read and write snap state. Every read-modify-write goes through `update`, which
 * runs under a single mutex, so concurrent requests never lose each other's records.
 */
import type { Json } from '@metamask/snaps-sdk';

import { migrateState } from './migrations';
import type { SnapState } from './schema';
import { Mutex } from './mutex';

export class SnapStateStore {
  readonly #mutex = new Mutex();

  async #load(): Promise<SnapState> {
    const stored = await snap.request({ method: 'snap_manageState', params: { operation: 'get' } });
    return migrateState(stored);
  }

  async #save(state: SnapState): Promise<void> {
    await snap.request({
      method: 'snap_manageState',
      params: { operation: 'update', newState: state as unknown as Record<string, Json> },
    });
  }

  /** A snapshot for reading. Do not modify it: changes are not saved. */
  async read(): Promise<SnapState> {
    return this.#load();
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
