// Bundle-size shim: key-tree holds its ed25519 and ed25519Bip32 curves (noble's Edwards curve
// code) beside secp256k1, which is the only curve the snap derives on: MetaMask hands it the
// secp256k1 coin-type node (snap_getBip44Entropy). Every operation of this curve throws, so a
// path that reached it would fail closed (see snap.config.ts).
const refuse = () => {
  throw new Error('The ed25519 curves are not in this snap.');
};
module.exports = {
  name: 'ed25519 (not in this snap)',
  curve: Object.freeze({}),
  secret: new Uint8Array(0),
  isValidPrivateKey: refuse,
  deriveUnhardenedKeys: false,
  publicKeyLength: 0,
  getPublicKey: refuse,
  publicAdd: refuse,
  compressPublicKey: refuse,
  decompressPublicKey: refuse,
  privateKeyLength: 0,
  masterNodeGenerationSpec: 'none',
  compressedPublicKeyLength: 0,
  bytesToNumberLE: refuse,
  multiplyWithBase: refuse,
};
