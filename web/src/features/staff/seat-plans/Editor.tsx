// The seat-plan editor: the tools beside the drawing, undo, and "save as a new version" behind a
// confirmation that says what happens to screenings already on sale (they keep their version).
// A plan the server refuses comes back with the rule it breaks, in words, and the seat ringed.
import { useMutation } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { localizedName } from '../../../lib/localized';
import { Modal } from '../programme/Modal';
import '../programme/programme.css';
import { saveSeatPlan, type SeatPlanVersion, type TicketGroup } from './api';
import { fieldTarget, fromDoc, toDoc } from './doc';
import { EditorCanvas } from './EditorCanvas';
import { PlanTools, RowAdder, RowTools, SeatTools, SectionTools } from './EditorTools';
import {
  initialState,
  nextRowName,
  nextRowPlace,
  placeOf,
  reducer,
  rowById,
  totals,
  type Action,
  type EditorPlan,
  type NewRow,
} from './model';

const RULES = [
  'seatNameTaken',
  'placeTaken',
  'outsidePlan',
  'sofaNotPair',
  'companionAlone',
  'gaCapacity',
  'gaRows',
  'rowEmpty',
  'empty',
  'ticketGroup',
  'priceLevel',
  'planSize',
  'text',
  'tooMany',
  'kind',
  'basedOn',
] as const;
type Rule = (typeof RULES)[number];

export function Editor({
  initial,
  basedOn,
  basedOnVersion,
  venueId,
  hallName,
  newest,
  ticketGroups,
  onSaved,
}: {
  initial: EditorPlan;
  /** The version it was opened from; null: an empty plan. */
  basedOn: number | null;
  basedOnVersion?: number;
  venueId: number;
  hallName: string;
  newest: SeatPlanVersion | null;
  ticketGroups: readonly TicketGroup[];
  onSaved: (v: SeatPlanVersion) => void;
}) {
  const { t, i18n } = useTranslation();
  const [state, rawDispatch] = useReducer(reducer, initial, initialState);
  const [confirming, setConfirming] = useState(false);
  const [flagged, setFlagged] = useState<{ field: string; rule: Rule | null } | null>(null);
  const [row, setRow] = useState<NewRow>(() => ({
    name: nextRowName(initial.sections[0]),
    count: 10,
    ...nextRowPlace(initial),
    spacing: 1,
    numbering: 'ltr',
  }));
  const dispatch = (a: Action) => {
    rawDispatch(a);
    if (a.type !== 'focus' && a.type !== 'select') setFlagged(null);
    if (a.type === 'addRow') {
      // The next row: named one on, two lines further back, same start.
      const section = state.plan.sections.find((s) => s.id === state.section);
      const name = String(Number(a.row.name) + 1);
      setRow({
        ...a.row,
        name: Number.isFinite(Number(a.row.name)) ? name : nextRowName(section),
        y: a.row.y + 2,
      });
    }
  };
  const save = useMutation({
    mutationFn: () => saveSeatPlan(venueId, basedOn, toDoc(state.plan)),
    onSuccess: (r) => {
      setConfirming(false);
      rawDispatch({ type: 'saved', plan: fromDoc(r.plan) });
      onSaved(r.version);
    },
    onError: (e) => {
      setConfirming(false);
      if (e instanceof ApiError && e.code === 'seatPlanInvalid') {
        const field = typeof e.params?.field === 'string' ? e.params.field : '';
        const rule = RULES.find((r) => r === e.params?.rule) ?? null;
        setFlagged({ field, rule });
        const target = fieldTarget(state.plan, field);
        if (target.seat) rawDispatch({ type: 'focus', seat: target.seat });
        else if (target.section) rawDispatch({ type: 'chooseSection', id: target.section });
      }
    },
  });
  const count = totals(state.plan);
  const target = flagged ? fieldTarget(state.plan, flagged.field) : {};
  const where = (() => {
    if (target.seat) {
      const p = placeOf(state.plan, target.seat);
      if (p) return t('seatMap.seatName', { row: p.row.name, seat: p.seat.name });
    }
    if (target.row) {
      const r = rowById(state.plan, target.row);
      if (r) return t('staffSeatPlans.rowN', { row: r.row.name });
    }
    if (target.section) {
      const s = state.plan.sections.find((x) => x.id === target.section);
      if (s) return localizedName(i18n.language, s.name, s.nameEn);
    }
    return null;
  })();
  const upcoming = newest?.upcoming ?? 0;

  return (
    <div className="plan-editor">
      <div className="plan-editor__bar" role="toolbar" aria-label={t('staffSeatPlans.toolbar')}>
        <p className="plan-editor__summary">
          {basedOnVersion
            ? t('staffSeatPlans.editingVersion', { version: basedOnVersion })
            : t('staffSeatPlans.editingEmpty')}{' '}
          · {t('staffSeatPlans.rowsCount', { count: count.rows })} ·{' '}
          {t('staffSeatPlans.seatsCount', { count: count.seats })}
          {count.gaPlaces > 0 && <> · {t('staffSeatPlans.gaCount', { count: count.gaPlaces })}</>}
          {state.changed && (
            <span className="plan-editor__unsaved"> · {t('staffSeatPlans.unsaved')}</span>
          )}
        </p>
        <button
          type="button"
          className="staff-button staff-button--quiet"
          disabled={state.past.length === 0}
          onClick={() => dispatch({ type: 'undo' })}
        >
          {t('staffSeatPlans.undo')}
        </button>
        <button type="button" className="staff-button" onClick={() => setConfirming(true)}>
          {t('staffSeatPlans.save')}
        </button>
      </div>
      {flagged && (
        <p className="programme-error plan-editor__error" role="alert">
          {where && <strong>{where}: </strong>}
          {flagged.rule ? t(`staffSeatPlans.rules.${flagged.rule}`) : t('errors.seatPlanInvalid')}
        </p>
      )}
      {save.error && !flagged && (
        <p className="programme-error plan-editor__error" role="alert">
          {errorMessage(t, save.error)}
        </p>
      )}
      <div className="plan-editor__main">
        <div className="plan-editor__tools">
          <SectionTools state={state} dispatch={dispatch} ticketGroups={ticketGroups} />
          <RowAdder state={state} row={row} onRow={setRow} dispatch={dispatch} />
          <SeatTools state={state} dispatch={dispatch} />
          <RowTools state={state} dispatch={dispatch} />
          <PlanTools state={state} dispatch={dispatch} />
        </div>
        <div className="plan-editor__drawing">
          <EditorCanvas
            state={state}
            dispatch={dispatch}
            flagged={target.seat ?? null}
            start={{ x: row.x, y: row.y }}
            onPickCell={(x, y) => setRow((r) => ({ ...r, x, y }))}
          />
          <p className="plan-editor__keys">{t('staffSeatPlans.keys')}</p>
        </div>
      </div>
      {confirming && (
        <Modal title={t('staffSeatPlans.confirmTitle')} onClose={() => setConfirming(false)}>
          <p>
            {t('staffSeatPlans.confirm', {
              version: (newest?.version ?? 0) + 1,
              hall: hallName,
              seats: count.seats,
            })}
          </p>
          <p>
            {newest
              ? t('staffSeatPlans.keepVersion', { count: upcoming, version: newest.version })
              : t('staffSeatPlans.firstVersion')}
          </p>
          <div className="programme-dialog__actions">
            <button
              type="button"
              className="staff-button"
              disabled={save.isPending}
              onClick={() => save.mutate()}
            >
              {t('staffSeatPlans.saveVersion')}
            </button>
            <button
              type="button"
              className="staff-button staff-button--quiet"
              onClick={() => setConfirming(false)}
            >
              {t('staffProgramme.back')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
