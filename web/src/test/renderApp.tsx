import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { App } from '../app/App';
import type { SiteConfig } from '../lib/api/types';
import { resetUuid } from '../lib/api/client';
import i18n from '../lib/i18n';
import { makeConfig } from './fixtures';

/** A canned answer for a call, or undefined for none; `init` is the request's (method, body). */
export type ApiHandler = (
  url: URL,
  init?: RequestInit,
) => { status?: number; body: unknown } | undefined;

/** Replaces fetch with canned API answers; unknown paths answer 404 in the server's error shape. */
export function mockApi(
  config: SiteConfig | null = makeConfig(),
  handler: ApiHandler = () => undefined,
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const answer =
      url.pathname === '/api/config'
        ? config
          ? { status: 200, body: config }
          : { status: 500, body: { error: { code: 'internal', message: 'down' } } }
        : handler(url, init);
    const status = answer?.status ?? (answer ? 200 : 404);
    const body = answer?.body ?? {
      error: { code: 'notFound', message: `No mock for ${url.pathname}` },
    };
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', uuid: 'test-uuid' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Renders the whole app at `url`, in memory, with the given API answers. */
export async function renderApp(
  url: string,
  { config = makeConfig(), api }: { config?: SiteConfig | null; api?: ApiHandler } = {},
) {
  await i18n.changeLanguage('he');
  document.documentElement.lang = 'he';
  document.documentElement.dir = 'rtl';
  resetUuid();
  const fetchMock = mockApi(config, api);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  let router: ReturnType<typeof createMemoryRouter> | undefined;
  const result = render(
    <App
      queryClient={queryClient}
      createRouter={(routes) => {
        router = createMemoryRouter(routes, { initialEntries: [url] });
        return router;
      }}
    />,
  );
  return { ...result, fetchMock, getRouter: () => router };
}
