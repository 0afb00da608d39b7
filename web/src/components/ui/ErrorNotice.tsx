// What a page shows when what it reads could not be had: the notice's title and why, in words,
// and (`onRetry`) a button to ask again.
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/apiErrors';
import { Notice } from './Notice';

export function ErrorNotice({
  title,
  error,
  headingLevel,
  onRetry,
}: {
  title: string;
  error: unknown;
  headingLevel?: 1 | 2;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Notice title={title} headingLevel={headingLevel} tone="error">
      <p>{errorMessage(t, error)}</p>
      {onRetry && (
        <p>
          <button type="button" className="button button--primary" onClick={onRetry}>
            {t('whatsOn.retry')}
          </button>
        </p>
      )}
    </Notice>
  );
}
