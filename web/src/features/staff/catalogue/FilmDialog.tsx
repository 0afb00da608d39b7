// A film added or changed: its names, synopsis, category, runtime, classification, languages,
// release date and trailer link in he and en, and its poster (a JPEG or PNG, shown before it is
// sent). The server judges every field again; its field errors are shown where they belong.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, featurePosterUrl } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { localizedName } from '../../../lib/localized';
import { Modal } from '../programme/Modal';
import { StepActions } from '../programme/FormParts';
import { addFilm, changeFilm, uploadPoster, type Category, type FilmDto } from './api';
import { Field, FieldGroup, PictureField } from './Field';
import { usePictureFile } from './usePictureFile';
import {
  FILM_FIELDS,
  emptyFilm,
  filmBody,
  filmSchema,
  filmValues,
  serverFieldErrors,
  type FilmField,
  type FilmValues,
} from './model';
import { NameOptions } from '../NameOptions';

const PAIRS: [FilmField, FilmField][] = [
  ['classification', 'classificationEn'],
  ['originalLanguage', 'originalLanguageEn'],
  ['dubbing', 'dubbingEn'],
  ['subtitles', 'subtitlesEn'],
];

export function FilmDialog({
  film,
  categories,
  onClose,
}: {
  /** null: a new film. */
  film: FilmDto | null;
  categories: readonly Category[];
  onClose: (saved: FilmDto | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const form = useForm<FilmValues>({
    resolver: zodResolver(filmSchema),
    defaultValues: film ? filmValues(film) : emptyFilm(categories[0]?.id),
  });
  const { register, handleSubmit, formState, setError } = form;
  const poster = usePictureFile('staffFilms.poster', 'poster');
  const [failure, setFailure] = useState<string | null>(null);
  // The film written so far: a new one once created (a failed poster upload then retries on it).
  const [written, setWritten] = useState<FilmDto | null>(film);

  const ruleText = (field: FilmField, rule: string) =>
    t(`staffFilms.rules.${rule}`, {
      field: t(`staffFilms.fields.${field}`),
      defaultValue: t('staffFilms.rules.invalid'),
    });
  const errorOf = (field: FilmField) => {
    const m = formState.errors[field]?.message;
    return m ? ruleText(field, m) : undefined;
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    let saved: FilmDto;
    try {
      const body = filmBody(values);
      saved = (written ? await changeFilm(written.id, body) : await addFilm(body)).film;
      setWritten(saved);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'formValidation') {
        for (const [f, rule] of Object.entries(serverFieldErrors(error.params, FILM_FIELDS))) {
          setError(f as FilmField, { type: 'server', message: rule });
        }
      } else if (error instanceof ApiError && error.code === 'screeningOverlap') {
        setError('runtime', { type: 'server', message: 'overlap' });
      } else {
        setFailure(errorMessage(t, error));
      }
      return;
    }
    if (poster.file) {
      try {
        saved = (await uploadPoster(saved.id, poster.file)).film;
      } catch (error) {
        poster.refused(error);
        // The film itself was saved: the form now edits it.
        return;
      }
    }
    onClose(saved);
  });

  const current = written
    ? featurePosterUrl({ featureId: written.id, featureImageUrl: written.imageUrl }, lang)
    : null;
  const shown = poster.preview ?? current;
  return (
    <Modal
      title={
        film
          ? t('staffFilms.editTitle', { name: localizedName(lang, film.name, film.nameEn) })
          : t('staffFilms.addTitle')
      }
      onClose={() => onClose(null)}
    >
      <form className="catalogue-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <FieldGroup legend={t('staffFilms.groups.names')}>
          <Field label={t('staffFilms.fields.name')} error={errorOf('name')}>
            <input dir="rtl" lang="he" {...register('name')} />
          </Field>
          <Field label={t('staffFilms.fields.nameEn')} error={errorOf('nameEn')}>
            <input dir="ltr" lang="en" {...register('nameEn')} />
          </Field>
          <Field label={t('staffFilms.fields.synopsis')} error={errorOf('synopsis')}>
            <textarea dir="rtl" lang="he" rows={3} {...register('synopsis')} />
          </Field>
          <Field label={t('staffFilms.fields.synopsisEn')} error={errorOf('synopsisEn')}>
            <textarea dir="ltr" lang="en" rows={3} {...register('synopsisEn')} />
          </Field>
        </FieldGroup>
        <FieldGroup legend={t('staffFilms.groups.facts')}>
          <Field label={t('staffFilms.fields.categoryId')} error={errorOf('categoryId')}>
            <select {...register('categoryId')}>
              <NameOptions items={categories} />
            </select>
          </Field>
          <Field
            label={t('staffFilms.fields.runtime')}
            error={errorOf('runtime')}
            hint={t('staffFilms.runtimeHint')}
          >
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={600}
              dir="ltr"
              {...register('runtime')}
            />
          </Field>
          <Field label={t('staffFilms.fields.releaseDate')} error={errorOf('releaseDate')}>
            <input type="date" dir="ltr" {...register('releaseDate')} />
          </Field>
          <Field
            label={t('staffFilms.fields.trailerUrl')}
            error={errorOf('trailerUrl')}
            hint={t('staffFilms.trailerHint')}
          >
            <input type="url" dir="ltr" placeholder="https://" {...register('trailerUrl')} />
          </Field>
          {PAIRS.map(([he, en]) => [
            <Field key={he} label={t(`staffFilms.fields.${he}`)} error={errorOf(he)}>
              <input dir="rtl" lang="he" {...register(he)} />
            </Field>,
            <Field key={en} label={t(`staffFilms.fields.${en}`)} error={errorOf(en)}>
              <input dir="ltr" lang="en" {...register(en)} />
            </Field>,
          ])}
        </FieldGroup>
        <FieldGroup legend={t('staffFilms.poster.title')}>
          <div className="catalogue-poster">
            {shown && (
              <img
                className="catalogue-poster__preview"
                src={shown}
                alt={
                  poster.preview ? t('staffFilms.poster.preview') : t('staffFilms.poster.current')
                }
                width={120}
                height={180}
              />
            )}
            <PictureField texts="staffFilms.poster" error={poster.error} onPick={poster.pick} />
          </div>
        </FieldGroup>
        <StepActions
          failure={failure}
          label={film ? t('staffFilms.save') : t('staffFilms.create')}
          disabled={formState.isSubmitting}
          backLabel={t('staffFilms.close')}
          onBack={() => onClose(null)}
        />
      </form>
    </Modal>
  );
}
