import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/documentTitle';
import { Notice } from './Notice';

/**
 * What a screen that is not built yet shows: its name and a plain statement, no fake content.
 * `withTitle={false}` when the page already has its own heading.
 */
export function NotAvailable({
  screenTitle,
  withTitle = true,
}: {
  screenTitle: string;
  withTitle?: boolean;
}) {
  const { t } = useTranslation();
  useDocumentTitle(screenTitle);
  return (
    <>
      {withTitle && <h1 className="page-title">{screenTitle}</h1>}
      <Notice
        title={t('notAvailable.message')}
        headingLevel={2}
        action={{ to: '/', label: t('notAvailable.backToWhatsOn') }}
      >
        <p>{t('notAvailable.detail')}</p>
      </Notice>
    </>
  );
}
