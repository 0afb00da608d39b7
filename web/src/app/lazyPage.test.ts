import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadAfterChunkError } from './lazyPage';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe('chunk load failures', () => {
  it('recognises the messages browsers and bundlers use', () => {
    expect(isChunkLoadError(new Error('Loading chunk 7 failed.'))).toBe(true);
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Loading chunk 7 failed')).toBe(false);
  });

  it('reloads at most once per minute', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const t0 = 1_000_000;
    expect(reloadAfterChunkError(storage, t0, reload)).toBe(true);
    expect(reloadAfterChunkError(storage, t0 + 30_000, reload)).toBe(false);
    expect(reloadAfterChunkError(storage, t0 + 59_999, reload)).toBe(false);
    expect(reloadAfterChunkError(storage, t0 + 60_000, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
