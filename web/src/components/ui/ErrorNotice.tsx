// What a page shows when what it reads could not be had: the notice's title and why, in words.
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/apiErrors';
import { Notice } from './Notice';

export function ErrorNotice({
  title,
  error,
  headingLevel,
}: {
  title: string;
  error: unknown;
  headingLevel?: 1 | 2;
}) {
  const { t } = useTranslation();
  return (
    <Notice title={title} headingLevel={headingLevel} tone="error">
      <p>{errorMessage(t, error)}</p>
    </Notice>
  );
}
