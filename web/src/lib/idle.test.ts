import { describe, expect, it } from 'vitest';
import { IDLE_TIME_MS, watchIdle } from './idle';

describe('the idle time', () => {
  it('is the spec’s 300,000 ms', () => {
    expect(IDLE_TIME_MS).toBe(300_000);
  });

  it('calls a buyer idle after five quiet minutes, and says when they are back', () => {
    const target = new EventTarget();
    let now = 0;
    let returns = 0;
    const watch = watchIdle(
      () => (returns += 1),
      target,
      () => now,
    );
    now = IDLE_TIME_MS - 1;
    expect(watch.isIdle()).toBe(false);
    target.dispatchEvent(new Event('pointerdown'));
    now += IDLE_TIME_MS - 1;
    expect(watch.isIdle()).toBe(false);
    expect(returns).toBe(0);
    now += 1;
    expect(watch.isIdle()).toBe(true);
    target.dispatchEvent(new Event('keydown'));
    expect(returns).toBe(1);
    expect(watch.isIdle()).toBe(false);
    watch.stop();
    now += IDLE_TIME_MS;
    target.dispatchEvent(new Event('keydown'));
    expect(returns).toBe(1);
  });
});
