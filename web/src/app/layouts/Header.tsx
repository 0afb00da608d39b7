import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { HeaderAccount } from './HeaderAccount';
import { LanguageSwitcher } from './LanguageSwitcher';
import { SiteLogo } from './SiteLogo';

export function Header({ lang }: { lang: string }) {
  const { t } = useTranslation();
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <LangLink to="/" className="site-header__brand" aria-label={t('app.home')}>
          <SiteLogo />
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
