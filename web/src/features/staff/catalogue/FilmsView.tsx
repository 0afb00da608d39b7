// The chain's films (issue 18 item 3): each with its poster, category, runtime and release date,
// newest first; a film is added or changed (its poster uploaded) in a dialog. A film shown only
// by other businesses is read here, not changed. Managers only.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { featurePosterUrl } from '../../../lib/api/client';
import { formatShortDate } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { StaffTable } from '../backoffice/StaffTable';
import { programmeKeys } from '../programme/api';
import { catalogueKeys, filmsQuery, type FilmDto } from './api';
import { CatalogueHead } from './CatalogueHead';
import { FilmDialog } from './FilmDialog';
import { useEditing } from './useEditing';
import './catalogue.css';

export function FilmsView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const films = useQuery(filmsQuery());
  const editing = useEditing<FilmDto>();

  const closed = (film: FilmDto | null) => {
    editing.closed(
      film && t('staffFilms.saved', { name: localizedName(lang, film.name, film.nameEn) }),
    );
    if (film) {
      void queryClient.invalidateQueries({ queryKey: catalogueKeys.films });
      // The programme offers the films too.
      void queryClient.invalidateQueries({ queryKey: programmeKeys.choices });
    }
  };

  return (
    <section className="backoffice catalogue" aria-labelledby="films-title">
      <CatalogueHead
        titleId="films-title"
        title={t('staffFilms.title')}
        addLabel={t('staffFilms.add')}
        canAdd={!!films.data}
        onAdd={editing.add}
        intro={t('staffFilms.intro')}
        saved={editing.saved}
      />
      <StaffTable
        query={films}
        rows={(d) => d.films.length}
        labelledBy="films-title"
        tableClass="catalogue-table"
        columns={[
          t('staffFilms.poster.column'),
          t('staffFilms.column'),
          t('staffFilms.fields.categoryId'),
          t('staffFilms.fields.runtime'),
          t('staffFilms.fields.releaseDate'),
          { hidden: t('staffFilms.actions') },
        ]}
      >
        {(data) =>
          data.films.map((f) => {
            const name = localizedName(lang, f.name, f.nameEn);
            return (
              <tr key={f.id}>
                <td>
                  <img
                    className="catalogue-table__poster"
                    src={featurePosterUrl({ featureId: f.id, featureImageUrl: f.imageUrl }, lang)}
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
                      onClick={() => editing.edit(f)}
                    >
                      {t('staffFilms.edit')}
                    </button>
                  ) : (
                    <span className="catalogue-table__note">{t('staffFilms.notYours')}</span>
                  )}
                </td>
              </tr>
            );
          })
        }
      </StaffTable>
      {editing.open && films.data && (
        <FilmDialog
          film={editing.open === 'new' ? null : editing.open}
          categories={films.data.categories}
          onClose={closed}
        />
      )}
    </section>
  );
}
