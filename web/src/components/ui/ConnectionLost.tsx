import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isConnectionLost, onConnectionChange } from '../../lib/api/client';
import './ConnectionLost.css';

/**
 * Shown once calls stop getting through after their retries: says so, and asks again for what
 * the page is showing. It goes away as soon as any call gets an answer.
 */
export function ConnectionLost() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [lost, setLost] = useState(isConnectionLost);
  const [busy, setBusy] = useState(false);
  useEffect(() => onConnectionChange(setLost), []);
  if (!lost) return null;

  const retry = async () => {
    setBusy(true);
    try {
      await queryClient.refetchQueries({
        predicate: (q) => q.state.status === 'error' || q.getObserversCount() > 0,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="connection-lost" role="alert">
      <p className="connection-lost__text">{t('connection.lost')}</p>
      <button
        type="button"
        className="button button--primary"
        disabled={busy}
        onClick={() => void retry()}
      >
        {t('connection.retry')}
      </button>
    </div>
  );
}
