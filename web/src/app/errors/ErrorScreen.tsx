import { useTranslation } from 'react-i18next';
import { Notice } from '../../components/ui/Notice';
import { useDocumentTitle } from '../../lib/documentTitle';

/** The generic error screen: "Error Occurred", a status code (500 unless told) and a message. */
export function ErrorScreen({
  status = 500,
  message,
  offerReload = false,
}: {
  status?: number;
  message?: string | null;
  offerReload?: boolean;
}) {
  const { t } = useTranslation();
  useDocumentTitle(t('error.title'));
  return (
    <Notice code={status} title={t('error.title')} tone="error">
      {/* The big code above is decoration; this is what a screen reader says. */}
      <p className="visually-hidden">{t('error.status', { status })}</p>
      <p>{message?.trim() ? message : t('error.defaultMessage')}</p>
      <p>
        {offerReload ? (
          <button
            type="button"
            className="button button--primary"
            onClick={() => window.location.reload()}
          >
            {t('error.reload')}
          </button>
        ) : (
          // A full page load: whatever broke gets a fresh start.
          <a className="button button--primary" href="/">
            {t('error.backHome')}
          </a>
        )}
      </p>
    </Notice>
  );
}
