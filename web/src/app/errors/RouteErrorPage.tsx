import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { reportScriptError } from '../../lib/clientErrors';
import { ApiError } from '../../lib/api/client';
import { isChunkLoadError } from '../lazyPage';
import { ErrorPageBoundary } from './ErrorPageBoundary';
import { ErrorScreen } from './ErrorScreen';
import { NotFoundPage } from './NotFoundPage';

function describe(error: unknown): { status: number; message: string | null } {
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    const message = error.statusText || (typeof data === 'string' ? data : null);
    return { status: error.status, message };
  }
  if (error instanceof ApiError && error.status >= 400) {
    return { status: error.status, message: error.message };
  }
  if (error instanceof Error) return { status: 500, message: error.message };
  return { status: 500, message: null };
}

/** The router's error element: a 404 becomes the not-found page, anything else the error screen. */
export function RouteErrorPage() {
  const error = useRouteError();
  const { status, message } = describe(error);
  useEffect(() => {
    if (!isRouteErrorResponse(error)) reportScriptError(error);
  }, [error]);
  if (status === 404) {
    return (
      <ErrorPageBoundary>
        <NotFoundPage />
      </ErrorPageBoundary>
    );
  }
  return (
    <ErrorPageBoundary>
      <ErrorScreen status={status} message={message} offerReload={isChunkLoadError(error)} />
    </ErrorPageBoundary>
  );
}
