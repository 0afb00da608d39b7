// "/https://host/x" sends the window to https://host/x, but only to hosts the configuration
// allows: anything else is a 404, so the site cannot be used as an open redirect.

export function isExternalPath(pathname: string): boolean {
  return /^\/http/i.test(pathname);
}

function hostAllowed(url: URL, allowList: readonly string[]): boolean {
  const hostname = url.hostname.toLowerCase();
  const host = url.host.toLowerCase();
  return allowList.some((entry) => {
    const allowed = entry.trim().toLowerCase();
    if (!allowed) return false;
    if (allowed.startsWith('*.')) return hostname.endsWith(allowed.slice(1));
    return allowed === hostname || allowed === host;
  });
}

/** The address to go to, or null when the path is no allowed external address. */
export function externalTarget(
  pathname: string,
  search: string,
  hash: string,
  allowList: readonly string[],
): string | null {
  if (!isExternalPath(pathname)) return null;
  let url: URL;
  try {
    url = new URL(`${pathname.slice(1)}${search}${hash}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  return hostAllowed(url, allowList) ? url.href : null;
}
