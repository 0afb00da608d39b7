import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConfig } from '../../lib/config';
import { STAFF_LANGUAGES, nativeName } from '../../lib/i18n/languages';
import { isStaffPath, useSwitchLanguageHref } from '../../lib/lang';

/** Links to this same page in each enabled language (a menu once there are many). */
export function LanguageSwitcher({ current }: { current: string }) {
  const { t } = useTranslation();
  const { locale } = useConfig();
  const hrefFor = useSwitchLanguageHref();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The staff screens offer he and en only.
  const languages = isStaffPath(pathname)
    ? locale.enabled.filter((code) => STAFF_LANGUAGES.includes(code))
    : locale.enabled;

  if (languages.length > 3) {
    return (
      <label className="language-switcher language-switcher--menu">
        <span className="visually-hidden">{t('nav.language')}</span>
        <select value={current} onChange={(event) => navigate(hrefFor(event.target.value))}>
          {languages.map((code) => (
            <option key={code} value={code} lang={code}>
              {nativeName(code)}
            </option>
          ))}
        </select>
      </label>
    );
  }

  return (
    <nav className="language-switcher" aria-label={t('nav.language')}>
      <ul>
        {languages.map((code) => (
          <li key={code}>
            <Link
              to={hrefFor(code)}
              lang={code}
              hrefLang={code}
              aria-current={code === current ? 'true' : undefined}
              className="language-switcher__link"
            >
              {nativeName(code)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
