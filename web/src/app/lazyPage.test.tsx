import { Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, lazyPage, reloadAfterChunkError } from './lazyPage';

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

describe('a route page', () => {
  it('renders at once, never its fallback, once its module is in', async () => {
    let loads = 0;
    const Page = lazyPage(() => {
      loads += 1;
      return Promise.resolve({ default: () => <p>the page</p> });
    });
    await Page.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    // Synchronously: no turn with the fallback in between.
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
    await Page.preload();
    expect(loads).toBe(1);
  });

  it('suspends until its module is in when it was not preloaded', async () => {
    const Page = lazyPage(() => Promise.resolve({ default: () => <p>the page</p> }));
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('the page')).toBeInTheDocument();
  });
});
