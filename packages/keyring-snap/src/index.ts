// Placeholder until the keyring snap lands (issue 10).
export {};
