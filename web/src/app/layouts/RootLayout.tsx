import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/ui/Loading';
import { useConfig } from '../../lib/config';
import { changeLanguage } from '../../lib/i18n';
import { applyDocumentLanguage } from '../../lib/i18n/languages';
import { usePageLanguage } from '../../lib/lang';
import { ExternalRedirect } from '../ExternalRedirect';
import { isExternalPath } from '../externalAddress';
import { NotFoundPage } from '../errors/NotFoundPage';
import { ConnectionLost } from '../../components/ui/ConnectionLost';
import { Footer } from './Footer';
import { Header } from './Header';
import './layout.css';
import '../errors/errors.css';

/** Switches i18next to `lang` (loading its catalogue if needed); true once it is in effect. */
function useLanguage(lang: string): boolean {
  const { i18n } = useTranslation();
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const ready = i18n.language === lang || failedFor === lang;

  useEffect(() => {
    let cancelled = false;
    changeLanguage(lang).catch((error: unknown) => {
      console.error(`Could not load the "${lang}" catalogue`, error);
      if (!cancelled) setFailedFor(lang);
    });
    return () => {
      cancelled = true;
    };
  }, [lang]);

  useEffect(() => {
    if (ready) applyDocumentLanguage(i18n.language);
  }, [ready, i18n.language]);

  return ready;
}

export function RootLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const config = useConfig();
  const page = usePageLanguage();
  const external = isExternalPath(pathname);
  // On a "/http…" address a ?lang the site does not offer may be the far address's own.
  const lang = external && !page.valid ? config.locale.default : page.lang;
  const ready = useLanguage(lang);

  if (!ready) return <Loading block />;

  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Header lang={lang} />
      <ConnectionLost />
      <main id="main" className="page" tabIndex={-1}>
        {external ? (
          <ExternalRedirect />
        ) : !page.valid ? (
          <NotFoundPage keepLang={false} />
        ) : (
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <Footer />
    </>
  );
}
