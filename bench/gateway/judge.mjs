#!/usr/bin/env node
// What judging a request by a key's access controls costs, apart from any load: a loop over
// packages/gateway's judgeRequest and callRefusal (built dist) for one eth_call, with a key
// holding origin, User-Agent, contract and method allowlists and a required ES256 JWT (made
// with jose), and with a key holding none. `node bench/gateway/judge.mjs` (build first).
import { createRequire } from 'node:module';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';

const require = createRequire(import.meta.url);
const dist = (file) => require(`../../packages/gateway/dist/${file}`);
const { judgeRequest, callRefusal } = dist('auth/access.js');
const { newKey } = dist('auth/keys.js');
const { contractTargets } = dist('jsonrpc/targets.js');

const N = Number(process.env.BENCH_JUDGE_REQUESTS ?? 300_000);
const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
const contract = `0x${'ab'.repeat(20)}`;
const guarded = newKey({
  plan: 'team',
  allow: {
    origins: ['*.example.com', 'https://bench.example.com'],
    userAgents: ['bench/'],
    contracts: [contract],
    methods: ['eth_call', 'eth_blockNumber', 'eth_chainId', 'eth_getBalance'],
  },
  jwt: { require: true, keys: [{ name: 'bench', pem: await exportSPKI(publicKey) }] },
});
const plain = newKey({ plan: 'team' });
const token = await new SignJWT({ aud: guarded.key })
  .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
  .setExpirationTime('1h')
  .sign(privateKey);
const page = { origin: 'https://app.example.com', userAgent: 'bench/1.0' };
const params = [{ to: contract, data: '0x01' }, 'latest'];
const cases = [
  ['allowlists + JWT', guarded, { ...page, authorization: `Bearer ${token}` }],
  ['none', plain, page],
];
for (const [label, { record, key }, credentials] of cases) {
  let us = 0;
  for (let pass = 0; pass < 2; pass++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < N; i++) {
      const access = await judgeRequest(record, key, credentials, Date.now());
      if (callRefusal(access, 'eth_call', () => contractTargets('eth_call', params))) {
        throw new Error('refused');
      }
    }
    us = Number(process.hrtime.bigint() - start) / N / 1000; // the second pass, warm
  }
  console.log(`${label}: ${us.toFixed(2)} us per request judged (one eth_call), ${N} requests`);
}
