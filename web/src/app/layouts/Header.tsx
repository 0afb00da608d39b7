import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { HeaderAccount } from './HeaderAccount';
import { LanguageSwitcher } from './LanguageSwitcher';

export function Header({ lang }: { lang: string }) {
  const { t } = useTranslation();
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <LangLink to="/" className="site-header__brand" aria-label={t('app.home')}>
          <svg
            className="site-header__logo"
            viewBox="0 0 32 32"
            aria-hidden="true"
            focusable="false"
          >
            <rect width="32" height="32" rx="7" fill="currentColor" opacity="0.12" />
            <path d="M7 10h18v4a2 2 0 0 0 0 4v4H7v-4a2 2 0 0 0 0-4z" fill="var(--color-accent)" />
          </svg>
          <span className="site-header__name">{t('app.name')}</span>
        </LangLink>
        <nav className="site-header__nav" aria-label={t('nav.main')}>
          <LangLink to="/" className="site-header__nav-link">
            {t('nav.whatsOn')}
          </LangLink>
          <LangLink to="/quick-order" className="site-header__nav-link">
            {t('marketing.nav.quickOrder')}
          </LangLink>
          <LangLink to="/search" className="site-header__nav-link">
            {t('marketing.nav.search')}
          </LangLink>
        </nav>
        <HeaderAccount />
        <LanguageSwitcher current={lang} />
      </div>
    </header>
  );
}
