import {
  createElement,
  lazy,
  useState,
  type ComponentType,
  type FunctionComponent,
  type LazyExoticComponent,
} from 'react';

// After a deploy, an open tab may ask for route chunks that no longer exist. Reloading fetches
// the new index; doing it at most once a minute keeps a truly broken chunk from looping.
const RELOAD_KEY = 'kupa.chunkReloadAt';
const RELOAD_INTERVAL_MS = 60_000;

const CHUNK_ERROR =
  /Loading (CSS )?chunk [\w-]+ failed|Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message);
}

/** Reloads unless it already did within the last minute; says whether it reloaded. */
export function reloadAfterChunkError(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeSessionStorage(),
  now: number = Date.now(),
  reload: () => void = () => window.location.reload(),
): boolean {
  if (!storage) return false;
  const last = Number(storage.getItem(RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && now - last < RELOAD_INTERVAL_MS && now >= last) return false;
  storage.setItem(RELOAD_KEY, String(now));
  reload();
  return true;
}

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** A route page loaded on first use; `preload` fetches its module ahead. */
export type LazyPage<P extends object> = FunctionComponent<P> & {
  /** Loads the page's module; settles (never rejects) once it is in, or has failed. */
  preload: () => Promise<void>;
};

/**
 * React.lazy for a route page, with the chunk-failure reload. A page whose module is already in
 * (`preload`, as main.tsx does for the page the server wrote a first screen of) renders at once
 * instead of suspending for a turn: the app's first frame is then the page, never a spinner.
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const loadOnce = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy: LazyExoticComponent<ComponentType<P>> = lazy(() =>
    loadOnce().catch((error: unknown) => {
      if (isChunkLoadError(error) && reloadAfterChunkError()) {
        // The page is going away; never settle so nothing flashes meanwhile.
        return new Promise<never>(() => {});
      }
      throw error;
    }),
  );
  function Page(props: P) {
    // Chosen once per mount: switching between the two would mount the page afresh.
    const [Loaded] = useState(() => loaded);
    return Loaded ? createElement(Loaded, props) : createElement(Lazy, props);
  }
  Page.preload = () =>
    loadOnce().then(
      () => undefined,
      () => undefined,
    );
  return Page;
}
