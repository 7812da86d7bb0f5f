// Bundle-size shim: key-tree's BIP-39 deriver (a node from a mnemonic phrase or a seed, with
// scure-bip39 and PBKDF2) and its CIP-3 deriver (ed25519Bip32, see no-ed25519-curves.cjs),
// which the snap never uses: it derives with BIP-32 from the coin-type node MetaMask hands it
// (snap_getBip44Entropy). Every function throws, so a path that reached one would fail closed.
const refuse = () => {
  throw new Error('Deriving from a mnemonic, a seed or on CIP-3 is not in this snap.');
};
module.exports = {
  deriveChildKey: refuse,
  bip39MnemonicToMultipath: refuse,
  multipathToBip39Mnemonic: refuse,
  mnemonicToSeed: refuse,
  createBip39KeyFromSeed: refuse,
  entropyToCip3MasterNode: refuse,
  getDerivationPathWithSeed: refuse,
};
