import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { LEGAL_PATHS } from '../../lib/legal';

/** On every page: the legal pages an Israeli site must have, and the time-zone note. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <nav className="site-footer__nav" aria-label={t('legal.nav')}>
        <ul>
          {LEGAL_PATHS.map(({ doc, path }) => (
            <li key={doc}>
              <LangLink to={path}>{t(`legal.${doc}.title`)}</LangLink>
            </li>
          ))}
        </ul>
      </nav>
      <p>{t('app.footer')}</p>
    </footer>
  );
}
