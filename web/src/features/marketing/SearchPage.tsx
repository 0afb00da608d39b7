import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { errorMessage } from '../../lib/apiErrors';
import { useDocumentTitle } from '../../lib/documentTitle';
import { localizedName } from '../../lib/localized';
import { useSearch } from './api';
import './marketing.css';

/**
 * Search features and complexes by their Hebrew or English name; the server folds niqqud and
 * case away on both sides. The query lives in the address (?q=), so a search can be shared.
 */
export default function SearchPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const title = t('marketing.search.title');
  useDocumentTitle(q ? t('marketing.search.titleFor', { q }) : title);
  const found = useSearch(q);

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams(params);
    next.set('q', typed.trim());
    setParams(next, { replace: true });
  }

  const features = found.data?.features ?? [];
  const complexes = found.data?.complexes ?? [];
  return (
    <article className="mk-page" aria-labelledby="mk-title">
      <h1 id="mk-title" className="page-title">
        {title}
      </h1>
      <form role="search" className="mk-search" onSubmit={submit}>
        <label htmlFor="mk-q" className="visually-hidden">
          {t('marketing.search.label')}
        </label>
        <input
          id="mk-q"
          type="search"
          value={typed}
          maxLength={100}
          placeholder={t('marketing.search.placeholder')}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit" className="button button--primary">
          {t('marketing.search.submit')}
        </button>
      </form>
      {q.trim() === '' ? null : found.isPending ? (
        <Loading />
      ) : found.isError ? (
        <p role="alert">{errorMessage(t, found.error)}</p>
      ) : (
        <div aria-live="polite">
          <p className="mk-lead">
            {t('marketing.search.count', { count: features.length + complexes.length, q })}
          </p>
          {features.length > 0 && (
            <section aria-labelledby="mk-found-features">
              <h2 id="mk-found-features">{t('marketing.search.features')}</h2>
              <ul className="mk-results">
                {features.map((f) => (
                  <li key={f.id}>
                    <LangLink to={`/movie/${f.id}`} className="mk-link">
                      {localizedName(lang, f.name, f.nameEn)}
                    </LangLink>
                    <span className="mk-muted">
                      {' '}
                      · {localizedName(lang, f.categoryName, f.categoryNameEn)} ·{' '}
                      {localizedName(lang, f.classification, f.classificationEn)}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {complexes.length > 0 && (
            <section aria-labelledby="mk-found-complexes">
              <h2 id="mk-found-complexes">{t('marketing.search.complexes')}</h2>
              <ul className="mk-results">
                {complexes.map((c) => (
                  <li key={c.id}>
                    <LangLink to={`/complexes#complex-${c.id}`} className="mk-link">
                      {localizedName(lang, c.name, c.nameEn)}
                    </LangLink>
                    <span className="mk-muted"> · {localizedName(lang, c.city, c.cityEn)}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
    </article>
  );
}
