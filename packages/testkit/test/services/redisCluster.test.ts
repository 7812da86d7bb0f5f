/**
 * The Redis Cluster on loopback: three masters made by `redis-cli --cluster create`, keys on
 * every node, and a master restarted on its port and folder keeps its slots and its data.
 */
import { startRedisCluster, type RedisClusterService } from '@l2wallet/testkit';

let cluster: RedisClusterService;
beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
}, 60_000);
afterAll(() => cluster?.stop());

it('serves keys on all three masters, and a master restarted with SIGKILL comes back with its data', async () => {
  expect(cluster.urls).toHaveLength(3);
  const info = await cluster.cli(0, ['cluster', 'info']);
  expect(info).toMatch(/cluster_state:ok/);
  expect(info).toMatch(/cluster_known_nodes:3/);
  expect(info).toMatch(/cluster_size:3/);
  // Hash tags that land on different slots; -c follows MOVED redirects.
  const tags = Array.from({ length: 12 }, (_, i) => `{key${i}}`);
  for (const tag of tags) await cluster.cli(0, ['-c', 'set', `${tag}:v`, tag]);
  const owners = new Set<string>();
  for (const tag of tags) {
    const slot = (await cluster.cli(0, ['cluster', 'keyslot', `${tag}:v`])).trim();
    const nodes = await cluster.cli(0, ['cluster', 'nodes']);
    const owner = nodes.split('\n').find((line) =>
      line
        .split(' ')
        .slice(8)
        .some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return Number(slot) >= from && Number(slot) <= to;
        }),
    );
    owners.add(owner?.split(' ')[1] ?? '');
  }
  expect(owners.size).toBe(3);

  await cluster.restart(1);
  for (const tag of tags) {
    expect((await cluster.cli(2, ['-c', 'get', `${tag}:v`])).trim()).toBe(tag);
  }
});
