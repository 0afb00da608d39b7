import { useEffect, useMemo, useState } from 'react';
import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { ConfigContext, configQuery, normalizeConfig, type AppConfig } from '../lib/config';
import i18n, { setWording } from '../lib/i18n';
import { watchIdle } from '../lib/idle';
import { createQueryClient } from '../lib/queryClient';
import { ShellHeader } from './layouts/ShellHeader';
import { prefetchLanding, readLandingData } from './landingPrefetch';
import { buildRoutes } from './router';

export type RouterFactory = (routes: RouteObject[]) => ReturnType<typeof createBrowserRouter>;

function AppRouter({ config, createRouter }: { config: AppConfig; createRouter: RouterFactory }) {
  const router = useMemo(() => createRouter(buildRoutes(config)), [config, createRouter]);
  return (
    <ConfigContext value={config}>
      <RouterProvider router={router} />
    </ConfigContext>
  );
}

/** Routes depend on the configuration (configured paths), so it is loaded before the router. */
function ConfigGate({ createRouter }: { createRouter: RouterFactory }) {
  const query = useQuery({ ...configQuery, retry: 1, retryDelay: 300 });
  // A failed config load is not fatal: the product defaults still give a working site.
  const config = useMemo(() => {
    if (query.isPending) return null;
    const normalized = normalizeConfig(query.isError ? null : query.data);
    // Before anything renders a word: the tenant's wording over the catalogues.
    setWording(normalized.wording);
    return normalized;
  }, [query.isPending, query.isError, query.data]);
  if (!config) return <ShellHeader />;
  return <AppRouter config={config} createRouter={createRouter} />;
}

const browserRouter: RouterFactory = (routes) => createBrowserRouter(routes);

export function App({
  createRouter = browserRouter,
  queryClient,
}: {
  createRouter?: RouterFactory;
  queryClient?: QueryClient;
}) {
  const [client] = useState(() => {
    if (queryClient) return queryClient;
    const created = createQueryClient();
    prefetchLanding(created, window.location, readLandingData());
    return created;
  });
  // Back after the idle time: what the page shows may be stale, so it is read afresh.
  useEffect(() => watchIdle(() => void client.invalidateQueries()).stop, [client]);
  return (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <ConfigGate createRouter={createRouter} />
      </I18nextProvider>
    </QueryClientProvider>
  );
}
