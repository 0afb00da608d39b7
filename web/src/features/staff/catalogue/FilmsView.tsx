// The chain's films (issue 18 item 3): each with its poster, category, runtime and release date,
// newest first; a film is added or changed (its poster uploaded) in a dialog. A film shown only
// by other businesses is read here, not changed. Managers only.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { featurePosterUrl } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { formatShortDate } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { programmeKeys } from '../programme/api';
import { catalogueKeys, filmsQuery, type FilmDto } from './api';
import { FilmDialog } from './FilmDialog';
import './catalogue.css';

export function FilmsView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const films = useQuery(filmsQuery());
  // The film in the dialog: 'new' for one being added; null: no dialog.
  const [open, setOpen] = useState<FilmDto | 'new' | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const closed = (film: FilmDto | null) => {
    setOpen(null);
    if (film) {
      setSaved(t('staffFilms.saved', { name: localizedName(lang, film.name, film.nameEn) }));
      void queryClient.invalidateQueries({ queryKey: catalogueKeys.films });
      // The programme offers the films too.
      void queryClient.invalidateQueries({ queryKey: programmeKeys.choices });
    }
  };

  return (
    <section className="backoffice catalogue" aria-labelledby="films-title">
      <div className="catalogue__head">
        <h2 id="films-title" className="backoffice__title">
          {t('staffFilms.title')}
        </h2>
        <button
          type="button"
          className="staff-button"
          disabled={!films.data}
          onClick={() => {
            setSaved(null);
            setOpen('new');
          }}
        >
          {t('staffFilms.add')}
        </button>
      </div>
      <p className="backoffice__intro">{t('staffFilms.intro')}</p>
      <p className="catalogue__status" role="status">
        {saved}
      </p>
      {films.isPending && <Loading block />}
      {films.error && <Notice tone="error" title={errorMessage(t, films.error)} />}
      {films.data && (
        <div
          className="backoffice__scroll"
          tabIndex={0}
          role="region"
          aria-labelledby="films-title"
        >
          <table className="catalogue-table">
            <thead>
              <tr>
                <th scope="col">{t('staffFilms.poster.column')}</th>
                <th scope="col">{t('staffFilms.column')}</th>
                <th scope="col">{t('staffFilms.fields.categoryId')}</th>
                <th scope="col">{t('staffFilms.fields.runtime')}</th>
                <th scope="col">{t('staffFilms.fields.releaseDate')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('staffFilms.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {films.data.films.map((f) => {
                const name = localizedName(lang, f.name, f.nameEn);
                return (
                  <tr key={f.id}>
                    <td>
                      <img
                        className="catalogue-table__poster"
                        src={featurePosterUrl(
                          { featureId: f.id, featureImageUrl: f.imageUrl },
                          lang,
                        )}
                        alt=""
                        width={40}
                        height={60}
                        loading="lazy"
                      />
                    </td>
                    <th scope="row">
                      <span className="catalogue-table__name">{name}</span>
                      {lang === 'he' && f.nameEn && (
                        <bdi lang="en" className="catalogue-table__alt">
                          {f.nameEn}
                        </bdi>
                      )}
                    </th>
                    <td>{localizedName(lang, f.categoryName, f.categoryNameEn)}</td>
                    <td className="catalogue-table__nowrap">
                      {t('staffProgramme.minutes', { count: f.runtime })}
                    </td>
                    <td className="catalogue-table__nowrap">
                      <bdi>
                        {/^\d{4}-\d{2}-\d{2}$/.test(f.releaseDate)
                          ? formatShortDate(f.releaseDate, lang)
                          : f.releaseDate}
                      </bdi>
                    </td>
                    <td>
                      {f.editable ? (
                        <button
                          type="button"
                          className="staff-button staff-button--quiet"
                          aria-label={t('staffFilms.editNamed', { name })}
                          onClick={() => {
                            setSaved(null);
                            setOpen(f);
                          }}
                        >
                          {t('staffFilms.edit')}
                        </button>
                      ) : (
                        <span className="catalogue-table__note">{t('staffFilms.notYours')}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {open && films.data && (
        <FilmDialog
          film={open === 'new' ? null : open}
          categories={films.data.categories}
          onClose={closed}
        />
      )}
    </section>
  );
}
