// Seat plans (issue 18 item 4): choose a complex and a hall, see its plan versions (the newest
// is the one new screenings are sold on), open one in the editor or start an empty plan. The
// complex and hall live in the URL (?sc=complex&sh=hall), so back and reload keep them.
// Managers only: the server refuses everyone else.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import { formatDateTime } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { StaffTable } from '../backoffice/StaffTable';
import { choicesQuery, programmeKeys } from '../programme/api';
import { planQuery, seatPlanKeys, versionsQuery, type SeatPlanVersion } from './api';
import { Editor } from './Editor';
import { fromDoc } from './doc';
import { emptyPlan } from './model';
import './seatPlans.css';
import { NameOptions } from '../NameOptions';

type Open = { kind: 'version'; id: number } | { kind: 'empty' } | null;

export function SeatPlansView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const choices = useQuery(choicesQuery());
  const complexes = choices.data?.complexes ?? [];
  const complex = complexes.find((c) => c.id === Number(params.get('sc'))) ?? complexes[0];
  const hall = complex?.halls.find((h) => h.id === Number(params.get('sh'))) ?? complex?.halls[0];
  const versions = useQuery({ ...versionsQuery(hall?.id ?? 0), enabled: hall !== undefined });
  const [open, setOpen] = useState<Open>(null);
  const [saved, setSaved] = useState<SeatPlanVersion | null>(null);
  const set = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    setParams(p);
    setOpen(null);
    setSaved(null);
  };

  if (choices.isPending) return <Loading block />;
  if (choices.error) return <Notice tone="error" title={errorMessage(t, choices.error)} />;
  if (!complex || !hall) return <Notice tone="neutral" title={t('staffProgramme.noComplex')} />;
  const hallName = localizedName(lang, hall.name, hall.nameEn);
  const newest = versions.data?.versions.find((v) => v.newest) ?? null;

  return (
    <section className="seat-plans" aria-labelledby="seat-plans-title">
      <h2 id="seat-plans-title" className="seat-plans__title">
        {t('staffSeatPlans.title')}
      </h2>
      <div className="seat-plans__bar">
        <label className="seat-plans__field">
          {t('staffProgramme.complex')}
          <select value={complex.id} onChange={(e) => set({ sc: e.target.value, sh: null })}>
            <NameOptions items={complexes} />
          </select>
        </label>
        <label className="seat-plans__field">
          {t('staffProgramme.field.hall')}
          <select value={hall.id} onChange={(e) => set({ sh: e.target.value })}>
            <NameOptions items={complex.halls} />
          </select>
        </label>
        <div className="seat-plans__actions">
          <button
            type="button"
            className="staff-button"
            disabled={!newest}
            onClick={() => newest && setOpen({ kind: 'version', id: newest.id })}
          >
            {t('staffSeatPlans.openNewest')}
          </button>
          <button
            type="button"
            className="staff-button staff-button--quiet"
            disabled={!versions.data}
            onClick={() => setOpen({ kind: 'empty' })}
          >
            {t('staffSeatPlans.startEmpty')}
          </button>
        </div>
      </div>

      {saved && (
        <div role="status" className="seat-plans__saved">
          {t('staffSeatPlans.saved', { version: saved.version, hall: hallName })}
        </div>
      )}
      <details className="seat-plans__versions" open={open === null}>
        <summary>
          <span id="seat-plans-versions">{t('staffSeatPlans.versionsOf', { hall: hallName })}</span>
          {versions.data && (
            <span className="seat-plans__count">
              · {t('staffSeatPlans.versions', { count: versions.data.versions.length })}
            </span>
          )}
        </summary>
        <StaffTable
          query={versions}
          rows={(d) => d.versions.length}
          labelledBy="seat-plans-versions"
          tableClass="seat-plans__table"
          columns={[
            t('staffSeatPlans.version'),
            t('staffSeatPlans.planName'),
            t('staffSeatPlans.savedBy'),
            t('staffSeatPlans.size'),
            t('staffSeatPlans.screenings'),
            { hidden: t('staffSeatPlans.open') },
          ]}
        >
          {(data) =>
            data.versions.map((v) => (
              <tr key={v.id}>
                <th scope="row">
                  {t('staffSeatPlans.versionN', { version: v.version })}
                  {v.newest && (
                    <span className="seat-plans__badge">{t('staffSeatPlans.newest')}</span>
                  )}
                </th>
                <td>
                  <bdi>{v.name}</bdi>
                </td>
                <td>
                  {v.savedAt ? (
                    <>
                      <bdi>{formatDateTime(v.savedAt, lang)}</bdi> · {v.savedBy}
                    </>
                  ) : (
                    t('staffSeatPlans.fromCatalogue')
                  )}
                </td>
                <td>
                  {t('staffSeatPlans.seatsCount', { count: v.seats })}
                  {v.gaCapacity > 0 && (
                    <> · {t('staffSeatPlans.gaCount', { count: v.gaCapacity })}</>
                  )}
                </td>
                <td>
                  {t('staffSeatPlans.screeningsCount', {
                    count: v.screenings,
                    upcoming: v.upcoming,
                  })}
                </td>
                <td>
                  <button
                    type="button"
                    className="staff-button staff-button--quiet"
                    aria-label={t('staffSeatPlans.openVersion', { version: v.version })}
                    onClick={() => setOpen({ kind: 'version', id: v.id })}
                  >
                    {t('staffSeatPlans.open')}
                  </button>
                </td>
              </tr>
            ))
          }
        </StaffTable>
      </details>

      {open && versions.data && (
        <OpenPlan
          key={open.kind === 'version' ? `v${open.id}` : 'empty'}
          open={open}
          hallName={hallName}
          venueId={hall.id}
          newest={newest}
          ticketGroups={versions.data.ticketGroups}
          onSaved={(v) => {
            setSaved(v);
            setOpen({ kind: 'version', id: v.id });
            void queryClient.invalidateQueries({ queryKey: seatPlanKeys.versions(hall.id) });
            // The programme's halls name the plan a new screening is sold on.
            void queryClient.invalidateQueries({ queryKey: programmeKeys.choices });
          }}
        />
      )}
    </section>
  );
}

function OpenPlan({
  open,
  hallName,
  venueId,
  newest,
  ticketGroups,
  onSaved,
}: {
  open: Exclude<Open, null>;
  hallName: string;
  venueId: number;
  newest: SeatPlanVersion | null;
  ticketGroups: Parameters<typeof Editor>[0]['ticketGroups'];
  onSaved: (v: SeatPlanVersion) => void;
}) {
  const { t } = useTranslation();
  const plan = useQuery({
    ...planQuery(open.kind === 'version' ? open.id : 0),
    enabled: open.kind === 'version',
  });
  if (open.kind === 'empty')
    return (
      <Editor
        initial={emptyPlan(hallName)}
        basedOn={null}
        venueId={venueId}
        hallName={hallName}
        newest={newest}
        ticketGroups={ticketGroups}
        onSaved={onSaved}
      />
    );
  if (plan.isPending) return <Loading block />;
  if (plan.error) return <Notice tone="error" title={errorMessage(t, plan.error)} />;
  return (
    <Editor
      initial={fromDoc(plan.data.plan)}
      basedOn={plan.data.version.id}
      basedOnVersion={plan.data.version.version}
      venueId={venueId}
      hallName={hallName}
      newest={newest}
      ticketGroups={ticketGroups}
      onSaved={onSaved}
    />
  );
}
