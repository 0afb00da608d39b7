import { describe, expect, it } from 'vitest';
import { createLatestGuard, latestOnly } from './latest';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the stale-response guard', () => {
  it('drops an older answer that arrives after a newer request began', async () => {
    const run = latestOnly<string>();
    const applied: string[] = [];
    const older = deferred<string>();
    const newer = deferred<string>();
    const first = run(
      () => older.promise,
      (v) => applied.push(v),
    );
    const second = run(
      () => newer.promise,
      (v) => applied.push(v),
    );
    newer.resolve('new');
    expect(await second).toBe(true);
    older.resolve('old');
    expect(await first).toBe(false);
    expect(applied).toEqual(['new']);
  });

  it('applies answers that come in order', async () => {
    const run = latestOnly<number>();
    const applied: number[] = [];
    expect(
      await run(
        () => Promise.resolve(1),
        (v) => applied.push(v),
      ),
    ).toBe(true);
    expect(
      await run(
        () => Promise.resolve(2),
        (v) => applied.push(v),
      ),
    ).toBe(true);
    expect(applied).toEqual([1, 2]);
  });

  it('knows the latest ticket', () => {
    const g = createLatestGuard();
    const a = g.begin();
    expect(g.isLatest(a)).toBe(true);
    const b = g.begin();
    expect(g.isLatest(a)).toBe(false);
    expect(g.isLatest(b)).toBe(true);
  });
});
