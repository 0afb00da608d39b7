// The editor's tools, each a group that opens and closes: the plan and its screen, the
// sections (reserved or a GA area, each selling one ticket group), a new row, the chosen row
// (curve, aisle, numbering, name) and the chosen seats (what kind of seat, sofa, remove).
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localizedName } from '../../../lib/localized';
import type { TicketGroup } from './api';
import {
  numberingOf,
  placeOf,
  SEAT_FLAGS,
  sofaPair,
  type Action,
  type EditorState,
  type NewRow,
  type Numbering,
  type SectionKind,
} from './model';
import { NameOptions } from '../NameOptions';

type Dispatch = (a: Action) => void;

function Group({
  title,
  children,
  open = true,
}: {
  title: string;
  children: ReactNode;
  open?: boolean;
}) {
  return (
    <details className="plan-tools__group" open={open}>
      <summary>{title}</summary>
      <div className="plan-tools__body">{children}</div>
    </details>
  );
}

function NumberField({
  label,
  value,
  onChange,
  min,
  max,
}: {
  label: string;
  value: number;
  onChange: (n: number) => void;
  min?: number;
  max?: number;
}) {
  return (
    <label>
      {label}
      <input
        type="number"
        inputMode="numeric"
        value={Number.isFinite(value) ? value : ''}
        min={min}
        max={max}
        onChange={(e) => onChange(e.target.valueAsNumber)}
      />
    </label>
  );
}

/** A tool's button: quiet, or red when it takes something away. */
/** A number and the tool that applies it (only a number: an empty field does nothing). */
function NumberTool({
  label,
  value,
  min,
  max,
  onChange,
  tool,
  onApply,
}: {
  label: string;
  value: number;
  min?: number;
  max?: number;
  onChange: (n: number) => void;
  tool: string;
  onApply: (n: number) => void;
}) {
  return (
    <div className="plan-tools__inline">
      <NumberField label={label} value={value} min={min} max={max} onChange={onChange} />
      <Tool label={tool} onClick={() => Number.isFinite(value) && onApply(value)} />
    </div>
  );
}

function Tool({
  label,
  onClick,
  disabled,
  danger,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      className={`staff-button ${danger ? 'staff-button--danger' : 'staff-button--quiet'}`}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

export function PlanTools({ state, dispatch }: { state: EditorState; dispatch: Dispatch }) {
  const { t } = useTranslation();
  const { plan } = state;
  return (
    <Group title={t('staffSeatPlans.tools.plan')} open={false}>
      <label>
        {t('staffSeatPlans.planName')}
        <input
          value={plan.name}
          onChange={(e) => dispatch({ type: 'plan', name: e.target.value })}
        />
      </label>
      <div className="plan-tools__pair">
        <NumberField
          label={t('staffSeatPlans.width')}
          value={plan.width}
          min={2}
          max={200}
          onChange={(width) => dispatch({ type: 'plan', width })}
        />
        <NumberField
          label={t('staffSeatPlans.height')}
          value={plan.height}
          min={2}
          max={200}
          onChange={(height) => dispatch({ type: 'plan', height })}
        />
      </div>
      <label>
        {t('staffSeatPlans.screenLabel')}
        <input
          value={plan.screen.label}
          onChange={(e) => dispatch({ type: 'screen', screen: { label: e.target.value } })}
        />
      </label>
      <label>
        {t('staffSeatPlans.screenLabelEn')}
        <input
          dir="ltr"
          value={plan.screen.labelEn}
          onChange={(e) => dispatch({ type: 'screen', screen: { labelEn: e.target.value } })}
        />
      </label>
      <div className="plan-tools__pair">
        <NumberField
          label={t('staffSeatPlans.screenFrom')}
          value={plan.screen.x}
          min={0}
          onChange={(x) => Number.isFinite(x) && dispatch({ type: 'screen', screen: { x } })}
        />
        <NumberField
          label={t('staffSeatPlans.screenWidth')}
          value={plan.screen.width}
          min={1}
          onChange={(width) =>
            Number.isFinite(width) && dispatch({ type: 'screen', screen: { width } })
          }
        />
      </div>
    </Group>
  );
}

export function SectionTools({
  state,
  dispatch,
  ticketGroups,
}: {
  state: EditorState;
  dispatch: Dispatch;
  ticketGroups: readonly TicketGroup[];
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [kind, setKind] = useState<SectionKind>('reserved');
  const [name, setName] = useState('');
  const [nameEn, setNameEn] = useState('');
  const [group, setGroup] = useState(ticketGroups[0]?.id ?? 0);
  const [capacity, setCapacity] = useState(100);
  const active = state.plan.sections.find((s) => s.id === state.section);
  const add = (e: FormEvent) => {
    e.preventDefault();
    dispatch({
      type: 'addSection',
      section: { name, nameEn, kind, ticketGroupId: group, priceLevel: 1, capacity },
    });
    setName('');
    setNameEn('');
  };
  const groupName = (id: number) => {
    const g = ticketGroups.find((x) => x.id === id);
    return g ? localizedName(lang, g.name, g.nameEn) : String(id);
  };
  return (
    <Group title={t('staffSeatPlans.tools.sections')}>
      {state.plan.sections.length > 0 && (
        <fieldset className="plan-tools__sections">
          <legend>{t('staffSeatPlans.activeSection')}</legend>
          {state.plan.sections.map((s) => (
            <label key={s.id} className="plan-tools__radio">
              <input
                type="radio"
                name="plan-section"
                checked={s.id === state.section}
                onChange={() => dispatch({ type: 'chooseSection', id: s.id })}
              />
              <span>
                {localizedName(lang, s.name, s.nameEn)} ·{' '}
                {s.kind === 'ga'
                  ? t('staffSeatPlans.gaCount', { count: s.capacity })
                  : t('staffSeatPlans.rowsCount', { count: s.rows.length })}{' '}
                · {groupName(s.ticketGroupId)}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {active && (
        <div className="plan-tools__edit" role="group" aria-label={t('staffSeatPlans.editSection')}>
          <label>
            {t('staffSeatPlans.ticketGroup')}
            <select
              value={active.ticketGroupId}
              onChange={(e) =>
                dispatch({
                  type: 'editSection',
                  id: active.id,
                  section: { ticketGroupId: Number(e.target.value) },
                })
              }
            >
              <NameOptions items={ticketGroups} />
            </select>
          </label>
          <div className="plan-tools__pair">
            <NumberField
              label={t('staffSeatPlans.priceLevel')}
              value={active.priceLevel}
              min={1}
              max={99}
              onChange={(priceLevel) =>
                dispatch({ type: 'editSection', id: active.id, section: { priceLevel } })
              }
            />
            {active.kind === 'ga' && (
              <NumberField
                label={t('staffSeatPlans.capacity')}
                value={active.capacity}
                min={1}
                onChange={(capacity) =>
                  dispatch({ type: 'editSection', id: active.id, section: { capacity } })
                }
              />
            )}
          </div>
          <Tool
            label={t('staffSeatPlans.removeSection')}
            onClick={() => dispatch({ type: 'removeSection', id: active.id })}
          />
        </div>
      )}
      <details className="plan-tools__more" open={state.plan.sections.length === 0}>
        <summary>{t('staffSeatPlans.newSection')}</summary>
        <form
          className="plan-tools__form"
          onSubmit={add}
          aria-label={t('staffSeatPlans.addSection')}
        >
          <fieldset className="plan-tools__kind">
            <legend>{t('staffSeatPlans.sectionKind')}</legend>
            {(['reserved', 'ga'] as const).map((k) => (
              <label key={k} className="plan-tools__radio">
                <input
                  type="radio"
                  name="new-section-kind"
                  checked={kind === k}
                  onChange={() => setKind(k)}
                />
                {t(`staffSeatPlans.kinds.${k}`)}
              </label>
            ))}
          </fieldset>
          <label>
            {t('staffSeatPlans.sectionName')}
            <input required value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            {t('staffSeatPlans.sectionNameEn')}
            <input dir="ltr" value={nameEn} onChange={(e) => setNameEn(e.target.value)} />
          </label>
          <label>
            {t('staffSeatPlans.ticketGroup')}
            <select value={group} onChange={(e) => setGroup(Number(e.target.value))}>
              <NameOptions items={ticketGroups} />
            </select>
          </label>
          {kind === 'ga' && (
            <NumberField
              label={t('staffSeatPlans.capacity')}
              value={capacity}
              min={1}
              onChange={setCapacity}
            />
          )}
          <button type="submit" className="staff-button">
            {t('staffSeatPlans.addSection')}
          </button>
        </form>
      </details>
    </Group>
  );
}

export function RowAdder({
  state,
  row,
  onRow,
  dispatch,
}: {
  state: EditorState;
  row: NewRow;
  onRow: (r: NewRow) => void;
  dispatch: Dispatch;
}) {
  const { t } = useTranslation();
  const active = state.plan.sections.find((s) => s.id === state.section);
  const can = active?.kind === 'reserved';
  const add = (e: FormEvent) => {
    e.preventDefault();
    dispatch({ type: 'addRow', row });
  };
  return (
    <Group title={t('staffSeatPlans.tools.addRow')}>
      {!can && <p className="plan-tools__hint">{t('staffSeatPlans.needSection')}</p>}
      <form className="plan-tools__form" onSubmit={add} aria-label={t('staffSeatPlans.addRow')}>
        <div className="plan-tools__pair">
          <label>
            {t('staffSeatPlans.rowName')}
            <input
              required
              maxLength={10}
              value={row.name}
              onChange={(e) => onRow({ ...row, name: e.target.value })}
            />
          </label>
          <NumberField
            label={t('staffSeatPlans.seatCount')}
            value={row.count}
            min={1}
            max={200}
            onChange={(count) => onRow({ ...row, count })}
          />
        </div>
        <div className="plan-tools__pair">
          <NumberField
            label={t('staffSeatPlans.startX')}
            value={row.x}
            min={1}
            onChange={(x) => onRow({ ...row, x })}
          />
          <NumberField
            label={t('staffSeatPlans.startY')}
            value={row.y}
            min={1}
            onChange={(y) => onRow({ ...row, y })}
          />
        </div>
        <p className="plan-tools__hint">{t('staffSeatPlans.pickHint')}</p>
        <NumberField
          label={t('staffSeatPlans.spacing')}
          value={row.spacing}
          min={1}
          max={10}
          onChange={(spacing) => onRow({ ...row, spacing })}
        />
        <NumberingChoice
          name="new-row-numbering"
          value={row.numbering}
          onChange={(numbering) => onRow({ ...row, numbering })}
        />
        <button type="submit" className="staff-button" disabled={!can}>
          {t('staffSeatPlans.addRow')}
        </button>
      </form>
    </Group>
  );
}

function NumberingChoice({
  name,
  value,
  onChange,
}: {
  name: string;
  value: Numbering;
  onChange: (n: Numbering) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="plan-tools__kind">
      <legend>{t('staffSeatPlans.numbering')}</legend>
      {(['ltr', 'rtl'] as const).map((n) => (
        <label key={n} className="plan-tools__radio">
          <input type="radio" name={name} checked={value === n} onChange={() => onChange(n)} />
          {t(`staffSeatPlans.numberings.${n}`)}
        </label>
      ))}
    </fieldset>
  );
}

/** The row of the seat in focus: its name, a curve, an aisle, its numbering, or away with it. */
export function RowTools({ state, dispatch }: { state: EditorState; dispatch: Dispatch }) {
  const { t } = useTranslation();
  const place = state.focus ? placeOf(state.plan, state.focus) : null;
  const [depth, setDepth] = useState(1);
  const [after, setAfter] = useState(2);
  if (!place) return null;
  const { row } = place;
  return (
    <Group title={t('staffSeatPlans.tools.row', { row: row.name })}>
      <label>
        {t('staffSeatPlans.rowName')}
        <input
          maxLength={10}
          value={row.name}
          onChange={(e) => dispatch({ type: 'renameRow', row: row.id, name: e.target.value })}
        />
      </label>
      <NumberTool
        label={t('staffSeatPlans.curveDepth')}
        value={depth}
        min={-5}
        max={5}
        onChange={setDepth}
        tool={t('staffSeatPlans.curve')}
        onApply={(n) => dispatch({ type: 'curve', row: row.id, depth: n })}
      />
      <NumberTool
        label={t('staffSeatPlans.aisleAfter')}
        value={after}
        min={1}
        onChange={setAfter}
        tool={t('staffSeatPlans.aisle')}
        onApply={(n) => dispatch({ type: 'aisle', row: row.id, after: n })}
      />
      <div className="plan-tools__inline" role="group" aria-label={t('staffSeatPlans.renumber')}>
        {(['ltr', 'rtl'] as const).map((n) => (
          <button
            key={n}
            type="button"
            className="staff-button staff-button--toggle"
            aria-pressed={numberingOf(row) === n}
            onClick={() => dispatch({ type: 'renumber', row: row.id, numbering: n })}
          >
            {t(`staffSeatPlans.numberings.${n}`)}
          </button>
        ))}
      </div>
      <div className="plan-tools__inline">
        <Tool
          label={t('staffSeatPlans.selectRow')}
          onClick={() => dispatch({ type: 'selectRow', row: row.id })}
        />
        <Tool
          label={t('staffSeatPlans.removeRow')}
          onClick={() => dispatch({ type: 'removeRow', row: row.id })}
        />
      </div>
    </Group>
  );
}

/** The chosen seats: each kind of seat on or off for all of them, a sofa, removal. */
export function SeatTools({ state, dispatch }: { state: EditorState; dispatch: Dispatch }) {
  const { t } = useTranslation();
  const seats = state.selected
    .map((id) => placeOf(state.plan, id)?.seat)
    .filter((k) => k !== undefined);
  const none = seats.length === 0;
  const pair = sofaPair(state.plan, state.selected);
  const inSofa = seats.some((k) => k.sofa !== null);
  return (
    <Group title={t('staffSeatPlans.tools.seats', { count: seats.length })}>
      {none && <p className="plan-tools__hint">{t('staffSeatPlans.chooseHint')}</p>}
      <div className="plan-tools__flags" role="group" aria-label={t('staffSeatPlans.kindOfSeat')}>
        {SEAT_FLAGS.map((flag) => {
          const all = !none && seats.every((k) => k[flag]);
          return (
            <button
              key={flag}
              type="button"
              className="staff-button staff-button--toggle"
              aria-pressed={all}
              disabled={none}
              onClick={() => dispatch({ type: 'mark', flag, on: !all })}
            >
              {t(`seatMap.legendItem.${flag}`)}
            </button>
          );
        })}
      </div>
      <div className="plan-tools__inline">
        <Tool
          label={t('staffSeatPlans.pairSofa')}
          disabled={!pair}
          onClick={() => dispatch({ type: 'pairSofa' })}
        />
        <Tool
          label={t('staffSeatPlans.unpairSofa')}
          disabled={!inSofa}
          onClick={() => dispatch({ type: 'unpairSofa' })}
        />
      </div>
      <div className="plan-tools__inline">
        <Tool
          label={t('staffSeatPlans.clearSelection')}
          disabled={none}
          onClick={() => dispatch({ type: 'clearSelection' })}
        />
        <Tool
          label={t('staffSeatPlans.removeSeats')}
          disabled={none}
          danger
          onClick={() => dispatch({ type: 'removeSeats' })}
        />
      </div>
    </Group>
  );
}
