// The snaps-jest environment, plus one bridge: the simulation runs in this (outer) realm, and
// the getSnapKeyring hook from patches/ records keyring events on this realm's globalThis. The
// same array is handed to the test realm, so tests read the events MetaMask's bridge would get.
const { TestEnvironment: SnapsEnvironment } = require('@metamask/snaps-jest');

const EVENTS = Symbol.for('snaps-simulation.snapKeyringEvents');

class KeyringSnapEnvironment extends SnapsEnvironment {
  async setup() {
    await super.setup();
    // A fresh list per test file (the worker's realm outlives it).
    globalThis[EVENTS] = [];
    this.global[EVENTS] = globalThis[EVENTS];
  }
}

module.exports = KeyringSnapEnvironment;
