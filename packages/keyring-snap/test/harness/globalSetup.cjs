// Builds the loopback-only keyring snap that snaps-jest's server serves (build-test-snap.cjs).
module.exports = async () => {
  require('./build-test-snap.cjs').ensureTestSnap();
};
