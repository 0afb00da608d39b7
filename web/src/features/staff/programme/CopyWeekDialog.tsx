// Copy a week to the next: confirmed first (it adds screenings to seven days), then the result:
// how many were added and which were skipped, with why.
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/apiErrors';
import { addDays, formatDayMonth } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { copyWeek, type Complex, type Screening } from './api';
import { Modal } from './Modal';
import { timeRange } from './model';

export function CopyWeekDialog({
  complex,
  from,
  screenings,
  onClose,
}: {
  complex: Complex;
  from: string;
  screenings: readonly Screening[];
  onClose: (changed: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const copy = useMutation({ mutationFn: () => copyWeek(complex.id, from) });
  const playing = screenings.filter((s) => s.cancelledAt == null).length;
  const range = (start: string) =>
    `${formatDayMonth(start, lang)}–${formatDayMonth(addDays(start, 6), lang)}`;
  const byId = new Map(screenings.map((s) => [s.id, s]));
  return (
    <Modal title={t('staffProgramme.copy.title')} onClose={() => onClose(copy.isSuccess)}>
      {!copy.data && (
        <p>
          {t('staffProgramme.copy.confirm', {
            count: playing,
            from: range(from),
            to: range(addDays(from, 7)),
          })}
        </p>
      )}
      {copy.data && (
        <div className="programme-done" role="status">
          <p>{t('staffProgramme.copy.added', { count: copy.data.added.length })}</p>
          {copy.data.skipped.length > 0 && (
            <>
              <p>{t('staffProgramme.copy.skipped', { count: copy.data.skipped.length })}</p>
              <ul className="programme-skipped">
                {copy.data.skipped.map((k) => {
                  const s = byId.get(k.presentationId);
                  return (
                    <li key={k.presentationId}>
                      {s ? (
                        <>
                          {localizedName(lang, s.feature.name, s.feature.nameEn)}{' '}
                          <bdi>{timeRange(s, lang)}</bdi>
                        </>
                      ) : (
                        k.presentationId
                      )}{' '}
                      ·{' '}
                      {k.overlaps == null
                        ? t('staffProgramme.copy.past')
                        : t('staffProgramme.copy.overlaps')}
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </div>
      )}
      {copy.isError && (
        <p className="programme-error" role="alert">
          {errorMessage(t, copy.error)}
        </p>
      )}
      <div className="programme-dialog__actions">
        {!copy.data && (
          <button
            type="button"
            className="staff-button"
            disabled={copy.isPending || playing === 0}
            onClick={() => copy.mutate()}
          >
            {t('staffProgramme.copy.submit')}
          </button>
        )}
        <button
          type="button"
          className="staff-button staff-button--quiet"
          onClick={() => onClose(copy.isSuccess)}
        >
          {t('staffProgramme.close')}
        </button>
      </div>
    </Modal>
  );
}
