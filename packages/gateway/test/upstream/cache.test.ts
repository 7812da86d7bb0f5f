import { AnswerCache } from '../../src/upstream/cache';

describe('AnswerCache', () => {
  it('stays within its entry bound, dropping the oldest in bulk', () => {
    const cache = new AnswerCache(32, 1 << 20);
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, `"${i}"`, false);
      expect(cache.size).toBeLessThanOrEqual(32);
    }
    // A sixteenth (2) below the bound after the last bulk drop, never fewer.
    expect(cache.size).toBeGreaterThanOrEqual(30);
    expect(cache.get('k999')).toBe('"999"');
    expect(cache.get('k0')).toBeUndefined();
  });

  it('stays within its byte bound and counts bytes back to zero', () => {
    const cache = new AnswerCache(1000, 4000);
    const value = `"${'x'.repeat(98)}"`;
    for (let i = 0; i < 200; i++) {
      cache.set(`k${i}`, value, i % 2 === 0);
      expect(cache.byteSize).toBeLessThanOrEqual(4000);
    }
    cache.newHead();
    const left = cache.size;
    expect(left).toBeGreaterThan(0); // the immutable half stays
    expect(cache.byteSize).toBe(left * (4 + value.length));
  });

  it('drops from the kind just written first, and never the entry just written', () => {
    const cache = new AnswerCache(4, 1 << 20);
    cache.set('final-1', '1', false);
    cache.set('final-2', '2', false);
    cache.set('head-1', '3', true);
    cache.set('head-2', '4', true);
    cache.set('head-3', '5', true); // over: the oldest head answer goes (bulk: down to 3)
    expect(cache.get('head-3')).toBe('5');
    expect(cache.get('final-1')).toBe('1');
    expect(cache.get('final-2')).toBe('2');
    expect(cache.size).toBe(3);
    cache.newHead();
    expect(cache.get('head-3')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('keeps nothing when turned off or for an answer over a quarter of the bytes', () => {
    const off = new AnswerCache(0, 1 << 20);
    off.set('k', '1', false);
    expect(off.size).toBe(0);
    const small = new AnswerCache(10, 400);
    small.set('k', 'x'.repeat(200), false);
    expect(small.size).toBe(0);
  });
});
