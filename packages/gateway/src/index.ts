// Placeholder until the gateway lands (issue 8).
export {};
