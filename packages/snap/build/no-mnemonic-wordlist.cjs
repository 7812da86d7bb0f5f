// Bundle-size shim: key-tree imports the BIP-39 English wordlist (15 KB of the minified bundle)
// to derive from a mnemonic phrase, which the snap never does: MetaMask hands it the coin-type
// node (snap_getBip44Entropy). With no words, any mnemonic phrase is refused as invalid, so a
// path that reached it would fail closed (see snap.config.ts).
module.exports = { wordlist: Object.freeze([]) };
