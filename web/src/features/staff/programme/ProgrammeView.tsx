// The programme (issue 18 item 2): a complex's week as a grid, halls down and days across, each
// screening a button that opens it (its ticket group and channels, move, cancel); add a screening
// and copy the week to the next from the bar above; and the prices panel (prices and service
// charges from a date, decision 0070). Where the manager is lives in the URL (?pv=prices,
// ?pl=complex&pw=first day), so back and reload keep it. Managers only: the server refuses
// everyone else.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import {
  addDays,
  formatDayMonth,
  formatWeekday,
  isCalendarDate,
  todayInCinema,
} from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { AddScreeningDialog } from './AddScreeningDialog';
import { choicesQuery, programmeKeys, weekQuery, type Screening } from './api';
import { CopyWeekDialog } from './CopyWeekDialog';
import { PricesPanel } from './PricesPanel';
import { cellKey, cells, timeRange, weekDays } from './model';
import { ScreeningDialog } from './ScreeningDialog';
import './programme.css';
import { NameOptions } from '../NameOptions';

type Open = { kind: 'add' } | { kind: 'copy' } | { kind: 'screening'; screening: Screening } | null;

export function ProgrammeView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const choices = useQuery(choicesQuery());
  const complexes = choices.data?.complexes ?? [];
  const asked = Number(params.get('pl') ?? NaN);
  const complex = complexes.find((c) => c.id === asked) ?? complexes[0];
  const pw = params.get('pw') ?? '';
  const from = isCalendarDate(pw) ? pw : todayInCinema();
  const week = useQuery({ ...weekQuery(complex?.id ?? 0, from), enabled: complex !== undefined });
  const [open, setOpen] = useState<Open>(null);
  const mode = params.get('pv') === 'prices' ? 'prices' : 'week';
  const set = (next: Record<string, string>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) p.set(k, v);
    setParams(p);
  };
  const closed = (changed: boolean) => {
    setOpen(null);
    if (changed) void queryClient.invalidateQueries({ queryKey: programmeKeys.all });
  };

  if (choices.isPending) return <Loading block />;
  if (choices.error) return <Notice tone="error" title={errorMessage(t, choices.error)} />;
  if (!complex) return <Notice tone="neutral" title={t('staffProgramme.noComplex')} />;
  const days = weekDays(from);
  const grid = cells(week.data?.screenings ?? []);
  const halls = complex.halls;
  const weekLabel = `${formatDayMonth(days[0], lang)}–${formatDayMonth(days[6], lang)}`;

  return (
    <section className="programme" aria-labelledby="programme-title">
      <h2 id="programme-title" className="programme__title">
        {t('staffProgramme.title')}
      </h2>
      <div className="programme__modes" role="group" aria-label={t('staffProgramme.modes')}>
        {(['week', 'prices'] as const).map((m) => (
          <button
            key={m}
            type="button"
            className="staff-button staff-button--toggle"
            aria-pressed={mode === m}
            onClick={() => set({ pv: m })}
          >
            {m === 'week' ? t('staffProgramme.modeWeek') : t('staffProgramme.prices.view')}
          </button>
        ))}
      </div>
      {mode === 'prices' && <PricesPanel complexes={complexes} />}
      {mode === 'week' && (
        <>
          <div className="programme__bar">
            <label className="programme__field">
              {t('staffProgramme.complex')}
              <select value={complex.id} onChange={(e) => set({ pl: e.target.value })}>
                <NameOptions items={complexes} />
              </select>
            </label>
            <div className="programme__week" role="group" aria-label={t('staffProgramme.week')}>
              <button
                type="button"
                className="staff-button staff-button--quiet"
                onClick={() => set({ pw: addDays(from, -7) })}
              >
                {t('staffProgramme.previousWeek')}
              </button>
              <label className="programme__field">
                {t('staffProgramme.weekFrom')}
                <input
                  type="date"
                  value={from}
                  onChange={(e) => isCalendarDate(e.target.value) && set({ pw: e.target.value })}
                />
              </label>
              <button
                type="button"
                className="staff-button staff-button--quiet"
                onClick={() => set({ pw: addDays(from, 7) })}
              >
                {t('staffProgramme.nextWeek')}
              </button>
            </div>
            <div className="programme__actions">
              <button
                type="button"
                className="staff-button"
                onClick={() => setOpen({ kind: 'add' })}
              >
                {t('staffProgramme.add.open')}
              </button>
              <button
                type="button"
                className="staff-button staff-button--quiet"
                disabled={!week.data}
                onClick={() => setOpen({ kind: 'copy' })}
              >
                {t('staffProgramme.copy.open')}
              </button>
            </div>
          </div>
          <p className="programme__gap">
            {t('staffProgramme.gap', { count: choices.data.cleaningGapMinutes })}{' '}
            <span className="programme__legend">{t('staffProgramme.legend')}</span>
          </p>

          {week.isPending && <Loading block />}
          {week.error && <Notice tone="error" title={errorMessage(t, week.error)} />}
          {week.data && (
            <div
              className="programme__scroll"
              tabIndex={0}
              role="region"
              aria-labelledby="programme-caption"
            >
              <table className="programme-grid">
                <caption id="programme-caption">
                  {localizedName(lang, complex.name, complex.nameEn)} · {weekLabel}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{t('staffProgramme.field.hall')}</th>
                    {days.map((d) => (
                      <th scope="col" key={d}>
                        <span className="programme-grid__weekday">{formatWeekday(d, lang)}</span>{' '}
                        {formatDayMonth(d, lang)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {halls.map((h) => (
                    <tr key={h.id}>
                      <th scope="row">{localizedName(lang, h.name, h.nameEn)}</th>
                      {days.map((d) => (
                        <td key={d}>
                          <ul className="programme-cell">
                            {(grid.get(cellKey(h.id, d)) ?? []).map((s) => (
                              <li key={s.id}>
                                <button
                                  type="button"
                                  className={
                                    s.cancelledAt
                                      ? 'programme-show programme-show--cancelled'
                                      : 'programme-show'
                                  }
                                  onClick={() => setOpen({ kind: 'screening', screening: s })}
                                >
                                  <bdi className="programme-show__time">{timeRange(s, lang)}</bdi>
                                  <span className="programme-show__film">
                                    {localizedName(lang, s.feature.name, s.feature.nameEn)}
                                  </span>
                                  {s.cancelledAt ? (
                                    <span className="programme-show__seats">
                                      {t('staffProgramme.cancelled')}
                                    </span>
                                  ) : (
                                    <span className="programme-show__seats">
                                      <span className="programme-show__wide">
                                        {t('staffProgramme.soldHeld', {
                                          sold: s.sold,
                                          held: s.held,
                                        })}
                                      </span>
                                      {/* Narrow grids: "sold/held" in the reading order (a flex row follows the direction),
                                      as the legend above says. */}
                                      <span className="programme-show__narrow" aria-hidden="true">
                                        <span>{s.sold}</span>
                                        <span>/</span>
                                        <span>{s.held}</span>
                                      </span>
                                    </span>
                                  )}
                                </button>
                              </li>
                            ))}
                          </ul>
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}

      {open?.kind === 'add' && (
        <AddScreeningDialog
          complex={complex}
          features={choices.data.features}
          ticketGroups={choices.data.ticketGroups}
          day={days.includes(todayInCinema()) ? todayInCinema() : from}
          onClose={(added) => closed(added !== null)}
        />
      )}
      {open?.kind === 'copy' && week.data && (
        <CopyWeekDialog
          complex={complex}
          from={from}
          screenings={week.data.screenings}
          onClose={closed}
        />
      )}
      {open?.kind === 'screening' && (
        <ScreeningDialog
          screening={open.screening}
          complex={complex}
          ticketGroups={choices.data.ticketGroups}
          onClose={closed}
        />
      )}
    </section>
  );
}
