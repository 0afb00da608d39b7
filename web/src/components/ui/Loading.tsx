import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './Loading.css';

/**
 * How long a load may take before the spinner shows (spec section 9, "data-loading minimum
 * delay"): a quick answer never flashes a spinner.
 */
export const LOADING_DELAY_MS = 200;

/**
 * A quiet spinner with a spoken label, shown once the wait passes LOADING_DELAY_MS; `block`
 * centres it in a tall box (kept at its size while waiting, so nothing jumps).
 */
export function Loading({ block = false }: { block?: boolean }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setShown(true), LOADING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const className = block ? 'loading loading--block' : 'loading';
  if (!shown) return <div className={`${className} loading--waiting`} aria-hidden="true" />;
  return (
    <div className={className} role="status">
      <span className="loading__spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('app.loading')}</span>
    </div>
  );
}
