/** The snap's mutex (src/mutex.ts), tested directly (no snap installed). */
import { Mutex } from '../src/mutex';

describe('Mutex', () => {
  it('runs holders one at a time, in order, and survives a failing holder', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const hold = (name: string, fail = false) =>
      mutex.runExclusive(async () => {
        log.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`${name}:end`);
        if (fail) {
          throw new Error(name);
        }
        return name;
      });
    const results = await Promise.allSettled([hold('a'), hold('b', true), hold('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });
});
