import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Loading } from '../components/ui/Loading';
import { useConfig } from '../lib/config';
import { externalTarget } from './externalAddress';
import { NotFoundPage } from './errors/NotFoundPage';

/** The page for "/http…" paths: leave for an allowed host, otherwise a 404. */
export function ExternalRedirect() {
  const { pathname, search, hash } = useLocation();
  const { redirectAllowList } = useConfig();
  const target = externalTarget(pathname, search, hash, redirectAllowList);

  useEffect(() => {
    if (target) window.location.replace(target);
  }, [target]);

  return target ? <Loading block /> : <NotFoundPage />;
}
