import type { RouteObject } from 'react-router';
import type { AppConfig } from '../lib/config';
import { NotFoundPage } from './errors/NotFoundPage';
import { RouteErrorPage } from './errors/RouteErrorPage';
import { RootLayout } from './layouts/RootLayout';
import { ROUTE_PAGES } from './pages';
import { resolveRoutes } from './routeTable';

/** react-router's routes from routes.json and the configured paths. */
export function buildRoutes(config: AppConfig): RouteObject[] {
  const pages: RouteObject[] = resolveRoutes(config).map(({ id, path }) => {
    const Page = ROUTE_PAGES[id];
    if (!Page) throw new Error(`routes.json: no page for route "${id}"`);
    // Case-sensitive like the server's route matching: /ORDER is a 404 on both sides.
    return path === '/'
      ? { id, index: true, element: <Page /> }
      : { id, path, caseSensitive: true, element: <Page /> };
  });

  return [
    {
      id: 'root',
      path: '/',
      element: <RootLayout />,
      errorElement: <RouteErrorPage />,
      children: [
        {
          // Errors inside a page keep the header and language switcher around them.
          errorElement: <RouteErrorPage />,
          children: [...pages, { id: 'notFound', path: '*', element: <NotFoundPage /> }],
        },
      ],
    },
  ];
}
