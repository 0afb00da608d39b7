import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { useConfig } from '../../lib/config';
import { LEGAL_PATHS } from '../../lib/legal';

/** The donations page's path (not one of the configurable routes). */
const DONATIONS_PATH = '/donations';

/** The chain's marketing pages (decision 0051; the contact form is among the legal links). */
const CHAIN_PAGES = [
  { key: 'quickOrder', path: '/quick-order' },
  { key: 'search', path: '/search' },
  { key: 'complexes', path: '/complexes' },
  { key: 'birthdays', path: '/birthdays' },
  { key: 'jobs', path: '/jobs' },
] as const;

/**
 * On every page: what else the site sells (gift cards, memberships, donations: otherwise reached
 * from nowhere but a typed address), the legal pages an Israeli site must have, and the
 * time-zone note. The footer shows at every width; the header's nav hides on a phone.
 */
export function Footer() {
  const { t } = useTranslation();
  const routes = useConfig().routes;
  const shop = [
    { key: 'giftCards', path: routes.systemVouchers },
    { key: 'memberships', path: routes.memberships },
    { key: 'donations', path: DONATIONS_PATH },
  ] as const;
  return (
    <footer className="site-footer">
      <nav className="site-footer__nav" aria-label={t('shopNav.label')}>
        <ul>
          {shop.map(({ key, path }) => (
            <li key={key}>
              <LangLink to={path}>{t(`shopNav.${key}`)}</LangLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav className="site-footer__nav" aria-label={t('marketing.nav.label')}>
        <ul>
          {CHAIN_PAGES.map(({ key, path }) => (
            <li key={key}>
              <LangLink to={path}>{t(`marketing.nav.${key}`)}</LangLink>
            </li>
          ))}
        </ul>
      </nav>
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
