import type { CSSProperties } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { ApiError } from '../../lib/api/client';
import { useDocumentTitle } from '../../lib/documentTitle';
import { localizedName } from '../../lib/localized';
import { useMiniSite, type MiniSite } from './api';
import { ProgrammeCard } from './ProgrammeCard';
import { lookStyle, programme } from './programme';
import './MiniSitePage.css';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

/**
 * A mini-site (decision 0050): its own title, line, banner and colours, and its programme; each
 * screening leads into the normal order, which carries the mini-site along (`?miniSiteUrl=`).
 * `/mini-site` alone names none: there is no list of mini-sites to show.
 */
export default function MiniSitePage() {
  const { t, i18n } = useTranslation();
  const url = useParams().url ?? null;
  const query = useMiniSite(url);
  const site = query.data?.miniSite;
  const title = site ? localizedName(i18n.language, site.title, site.titleEn) : null;
  useDocumentTitle(title ?? t('screens.miniSite'));

  if (url === null || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <>
        <h1 className="page-title">{t('screens.miniSite')}</h1>
        <Notice
          title={t('miniSite.notFound')}
          headingLevel={2}
          tone="error"
          code={404}
          action={{ to: '/', label: t('miniSite.toWhatsOn') }}
        >
          <p>{t('miniSite.notFoundDetail')}</p>
        </Notice>
      </>
    );
  }
  if (query.isPending) return <Loading />;
  if (query.isError || !site) {
    return (
      <>
        <h1 className="page-title">{t('screens.miniSite')}</h1>
        <ErrorNotice
          title={t('miniSite.loadError')}
          headingLevel={2}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  return <MiniSiteView site={site} title={title ?? site.title} />;
}

function MiniSiteView({ site, title }: { site: MiniSite; title: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const description = localizedName(lang, site.description, site.descriptionEn);
  const groups = programme(site.PresentationList);
  return (
    <div
      className={site.colors ? 'mini-site mini-site--own-look' : 'mini-site'}
      style={lookStyle(site.colors) as CSSProperties}
      data-mini-site={site.URL}
    >
      <header className="mini-site__hero">
        {site.imageUrl && (
          <img className="mini-site__banner" src={site.imageUrl} alt="" width={1200} height={300} />
        )}
        <div className="mini-site__intro">
          <h1 className="mini-site__title">{title}</h1>
          {description && <p className="mini-site__description">{description}</p>}
        </div>
      </header>
      <section className="mini-site__programme" aria-labelledby="mini-site-programme">
        <h2 id="mini-site-programme" className="mini-site__programme-title">
          {t('miniSite.programme')}
        </h2>
        {groups.length === 0 ? (
          <p>
            {t('miniSite.empty')} <LangLink to="/">{t('miniSite.toWhatsOn')}</LangLink>
          </p>
        ) : (
          <div className="mini-site__films">
            {groups.map((group, index) => (
              <ProgrammeCard
                key={group.featureId}
                group={group}
                site={site.URL}
                eager={index < 4}
              />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
