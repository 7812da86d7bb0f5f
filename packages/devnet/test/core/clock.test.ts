import { Clock } from '../../src/core/clock';

describe('Clock', () => {
  let source = 1_000;
  const tick = (): number => source;

  test('runs with its source, from a start time when given one', () => {
    source = 1_000;
    const plain = new Clock(tick);
    const started = new Clock(tick, 500);
    expect([plain.now(), started.now()]).toEqual([1_000, 500]);
    source = 1_010;
    expect([plain.now(), started.now()]).toEqual([1_010, 510]);
  });

  test('set() reads the given time from now on, advance() moves it forward', () => {
    source = 2_000;
    const clock = new Clock(tick);
    clock.set(100);
    expect(clock.now()).toBe(100);
    source = 2_005;
    expect(clock.now()).toBe(105);
    clock.advance(60);
    expect(clock.now()).toBe(165);
  });

  test('defaults to the wall clock in seconds', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs(new Clock().now() - now)).toBeLessThanOrEqual(1);
  });
});
