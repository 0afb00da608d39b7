import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/client';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        // The API client already retried lost connections; a 4xx will not change on retry.
        retry: (failureCount, error) =>
          failureCount < 2 &&
          !(error instanceof ApiError && (error.code === 'connectionLost' || error.status < 500)),
      },
    },
  });
}
