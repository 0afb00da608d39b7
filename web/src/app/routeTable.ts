// The route list shared with the server (routes.json), with configured paths filled in.
import routesFile from './routes.json';
import type { AppConfig } from '../lib/config';

export type ConfigRouteKey = keyof AppConfig['routes'];

export interface RouteSpec {
  id: string;
  path: string;
}

interface RouteFileEntry {
  id: string;
  path: string;
  configKey?: string;
  /** The page's module, for the server to preload with the HTML (crates/api/src/web.rs). */
  page?: string;
}

export const ROUTE_FILE_ENTRIES: readonly RouteFileEntry[] = routesFile.routes;

function isConfigRouteKey(key: string, config: AppConfig): key is ConfigRouteKey {
  return Object.prototype.hasOwnProperty.call(config.routes, key);
}

/** "/mini-site/:url" with base "/promo" → "/promo/:url": the first segment is the configured one. */
export function replaceFirstSegment(path: string, base: string): string {
  const rest = path.replace(/^\/[^/]*/, '');
  if (base === '/' || base === '') return rest || '/';
  return `${base.replace(/\/+$/, '')}${rest}`;
}

export function resolveRoutes(config: AppConfig): RouteSpec[] {
  return ROUTE_FILE_ENTRIES.map((entry) => {
    if (entry.configKey === undefined) return { id: entry.id, path: entry.path };
    if (!isConfigRouteKey(entry.configKey, config)) {
      throw new Error(
        `routes.json: route "${entry.id}" has unknown configKey "${entry.configKey}"`,
      );
    }
    return { id: entry.id, path: replaceFirstSegment(entry.path, config.routes[entry.configKey]) };
  });
}
