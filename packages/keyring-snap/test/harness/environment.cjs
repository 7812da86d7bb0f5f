// The snaps-jest environment, plus two bridges between realms: the simulation runs in this
// (outer) realm, the tests in another. The getSnapKeyring hook from patches/ records keyring
// events on this realm's globalThis, and hands them to MetaMask's real bridge when a test puts
// one in the shared holder (test/harness/metamaskBridge.ts). The same array and holder are given
// to the test realm.
// The root's snaps-jest environment: BigInts readable in the worker's messages, as in every
// project, and the test profile (jest/shared.js at the repo root).
const SnapsEnvironment = require('../../../../jest/environment.snaps.js');

const EVENTS = Symbol.for('snaps-simulation.snapKeyringEvents');
const BRIDGE = Symbol.for('snaps-simulation.snapKeyringBridge');

class KeyringSnapEnvironment extends SnapsEnvironment {
  async setup() {
    await super.setup();
    // A fresh list and holder per test file (the worker's realm outlives it).
    globalThis[EVENTS] = [];
    globalThis[BRIDGE] = { keyring: null };
    this.global[EVENTS] = globalThis[EVENTS];
    this.global[BRIDGE] = globalThis[BRIDGE];
  }
}

module.exports = KeyringSnapEnvironment;
