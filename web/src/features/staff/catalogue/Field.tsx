// One labelled field of the films' and products' forms, with its error under it (read out with
// the field: aria-invalid and aria-describedby).
import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { PictureTexts } from './usePictureFile';

export function Field({
  label,
  error,
  hint,
  children,
  wide = false,
}: {
  label: string;
  /** The rule broken, in words; none: valid. */
  error?: string;
  hint?: string;
  /** The input, select or textarea (it gets the id and the ARIA attributes). */
  children: ReactElement<Record<string, unknown>>;
  /** Takes the whole row of a two-column form. */
  wide?: boolean;
}) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null]
    .filter(Boolean)
    .join(' ');
  const control = cloneElement(children, {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  });
  return (
    <div className={wide ? 'catalogue-field catalogue-field--wide' : 'catalogue-field'}>
      <label htmlFor={id}>{label}</label>
      {control}
      {hint && (
        <p id={`${id}-hint`} className="catalogue-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="catalogue-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A titled group of fields laid two to a row (one on a narrow screen). */
export function FieldGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="catalogue-group">
      <legend>{legend}</legend>
      <div className="catalogue-group__fields">{children}</div>
    </fieldset>
  );
}

/** The file input of a poster or a product's picture (`texts`: where its words are). */
export function PictureField({
  texts,
  error,
  onPick,
}: {
  texts: PictureTexts;
  error: string | null;
  onPick: (file: File | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <Field label={t(`${texts}.choose`)} error={error ?? undefined} hint={t(`${texts}.hint`)}>
      <input
        type="file"
        accept="image/jpeg,image/png"
        onChange={(e) => onPick(e.target.files?.[0])}
      />
    </Field>
  );
}
