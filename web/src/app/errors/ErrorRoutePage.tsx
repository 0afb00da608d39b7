import { useSearchParams } from 'react-router';
import { ErrorPageBoundary } from './ErrorPageBoundary';
import { ErrorScreen } from './ErrorScreen';

/** The /error?status=…&message=… page, for flows (payment returns, redirects) that end in error. */
export default function ErrorRoutePage() {
  const [params] = useSearchParams();
  const raw = Number(params.get('status'));
  const status = Number.isInteger(raw) && raw >= 400 && raw <= 599 ? raw : 500;
  return (
    <ErrorPageBoundary>
      <ErrorScreen status={status} message={params.get('message')} />
    </ErrorPageBoundary>
  );
}
