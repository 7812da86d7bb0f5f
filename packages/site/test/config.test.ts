// The build-time variables as a plain build has them (none set): config.ts reads them on load.
for (const name of Object.keys(process.env))
  if (name.startsWith('GATSBY_')) delete process.env[name];
const { readSiteConfig } = require('../src/utils/config') as typeof import('../src/utils/config');

describe('the site config (one parser for every page)', () => {
  it('has the build-time defaults without a query', () => {
    expect(readSiteConfig('')).toEqual({
      snapId: 'local:http://localhost:8085',
      snapVersion: '*',
      devnetRpcUrl: 'http://127.0.0.1:5050/rpc',
      keyringSnapId: 'local:http://localhost:8086',
      gatewayUrl: 'http://127.0.0.1:8545',
      gatewayKey: '',
      paymasterUrl: 'http://127.0.0.1:8090',
      paymasterKey: '',
    });
  });

  it('takes each setting from its query parameter', () => {
    const query = new URLSearchParams({
      snapId: 'local:http://127.0.0.1:9001',
      snapVersion: '^0.1.0',
      devnet: 'http://127.0.0.1:5099/rpc',
      keyringSnapId: 'local:http://127.0.0.1:9002',
      gateway: 'http://127.0.0.1:9003',
      key: 'ab'.repeat(16),
      paymaster: 'http://127.0.0.1:9004',
      paymasterKey: 'demo-sponsor',
    });
    expect(readSiteConfig(`?${query}`)).toEqual({
      snapId: 'local:http://127.0.0.1:9001',
      snapVersion: '^0.1.0',
      devnetRpcUrl: 'http://127.0.0.1:5099/rpc',
      keyringSnapId: 'local:http://127.0.0.1:9002',
      gatewayUrl: 'http://127.0.0.1:9003',
      gatewayKey: 'ab'.repeat(16),
      paymasterUrl: 'http://127.0.0.1:9004',
      paymasterKey: 'demo-sponsor',
    });
  });

  it('an empty parameter is the default, except the keys, where empty means no key', () => {
    const config = readSiteConfig('?snapId=&devnet=&key=&paymaster=&paymasterKey=');
    expect(config.snapId).toBe('local:http://localhost:8085');
    expect(config.devnetRpcUrl).toBe('http://127.0.0.1:5050/rpc');
    expect(config.gatewayKey).toBe('');
    expect(config.paymasterUrl).toBe('http://127.0.0.1:8090');
    expect(config.paymasterKey).toBe('');
  });
});
