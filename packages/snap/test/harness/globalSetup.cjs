// Builds, once per source change, the offline snap bundle that snaps-jest's built-in server
// serves to every test (see build-e2e-snap.cjs): no test reaches a public node.
module.exports = async () => {
  await require('./build-e2e-snap.cjs').ensureOfflineSnap();
};
