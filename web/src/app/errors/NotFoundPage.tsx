import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { Notice } from '../../components/ui/Notice';
import { useDocumentTitle } from '../../lib/documentTitle';

/**
 * The 404 page: unknown routes, a ?lang the site does not offer, a refused external redirect.
 * `keepLang={false}` when the page's own ?lang is the problem, so the home link drops it.
 */
export function NotFoundPage({ keepLang = true }: { keepLang?: boolean }) {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <Notice code={404} title={t('notFound.title')}>
      <p>
        {keepLang ? (
          <LangLink className="button button--primary" to="/">
            {t('notFound.backHome')}
          </LangLink>
        ) : (
          <Link className="button button--primary" to="/">
            {t('notFound.backHome')}
          </Link>
        )}
      </p>
    </Notice>
  );
}
