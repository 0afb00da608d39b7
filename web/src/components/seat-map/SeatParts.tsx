import { memo, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SeatShort } from '../../lib/api/types';
import {
  kindsOf,
  SEAT_MAP_CELL as CELL,
  SEAT_MAP_SEAT as SEAT,
  type BlockReason,
  type SeatKind,
  type SeatState,
} from './seatModel';

// The parts of the seat map (SeatMap.tsx): one seat, the details of the seat in view, the legend.

/**
 * A seat the screen marks for the buyer, over its state: a seat of their reservation that stays
 * (`yours`), one they are leaving, or the one a ticket moves to (`new`). A marked seat can be
 * activated whatever its state; `tag` names the ticket on the seat, `label` says it in words.
 */
export interface SeatMark {
  tone: 'yours' | 'leaving' | 'new';
  tag: string;
  label: string;
}

export interface SeatHandlers {
  register: (key: string, el: SVGGElement | null) => void;
  focus: (key: string) => void;
  hover: (key: string) => void;
  click: (seat: SeatShort, key: string, state: SeatState) => void;
  keyDown: (event: KeyboardEvent<SVGGElement>, seat: SeatShort, state: SeatState) => void;
}

/** One seat of the map: a button drawn in the hall. Memoised: it draws again only when its own
 * state, mark, busy flag or place in the tab order changes. */
export const Seat = memo(function Seat({
  seat,
  seatKey: key,
  state,
  reason,
  busy,
  mark,
  tabbable,
  canActivate,
  labelOf,
  handlers,
}: {
  seat: SeatShort;
  seatKey: string;
  state: SeatState;
  reason?: BlockReason;
  busy: boolean;
  mark?: SeatMark;
  tabbable: boolean;
  canActivate: boolean;
  labelOf: (seat: SeatShort, state: SeatState, reason?: BlockReason, mark?: SeatMark) => string;
  handlers: SeatHandlers;
}) {
  const kinds = kindsOf(seat);
  return (
    <g
      ref={(el) => handlers.register(key, el)}
      role="button"
      tabIndex={tabbable ? 0 : -1}
      aria-label={labelOf(seat, state, reason, mark)}
      aria-pressed={mark ? mark.tone !== 'yours' : state === 'selected'}
      aria-disabled={!canActivate || undefined}
      aria-busy={busy || undefined}
      className={[
        'seat',
        `seat--${state}`,
        ...kinds.map((k) => `seat--${k}`),
        busy ? 'seat--busy' : '',
        mark ? `seat--mark seat--mark-${mark.tone}` : '',
      ].join(' ')}
      transform={`translate(${seat.x * CELL + (CELL - SEAT) / 2} ${seat.y * CELL + (CELL - SEAT) / 2})`}
      onFocus={() => handlers.focus(key)}
      onPointerEnter={(event) => {
        if (event.pointerType === 'mouse') handlers.hover(key);
      }}
      onClick={() => handlers.click(seat, key, state)}
      onKeyDown={(event) => handlers.keyDown(event, seat, state)}
    >
      <SeatShape kinds={kinds} state={state} tag={mark?.tag} />
    </g>
  );
});

/** What a tapped, hovered or focused seat is: where, at what price level, of what kind, and why
 * it cannot be chosen when it cannot. */
export function SeatDetails({
  seat,
  state,
  reason,
  section,
  priceLevel,
  mark,
}: {
  seat: SeatShort | null;
  state: SeatState | null;
  reason?: BlockReason;
  section: string;
  priceLevel: string | null;
  mark?: SeatMark;
}) {
  const { t } = useTranslation();
  return (
    <div className="seat-map__details" aria-live="polite" data-testid="seat-details">
      {seat && state ? (
        <>
          <p className="seat-map__details-name">
            <strong>{t('seatMap.seatName', { row: seat.r, seat: seat.n })}</strong>
            {section && <span> · {section}</span>}
            {priceLevel && <span> · {priceLevel}</span>}
          </p>
          <p className="seat-map__details-more">
            {[
              ...kindsOf(seat).map((kind) => t(`seatMap.legendItem.${kind}`)),
              mark ? mark.label : t(`seatMap.legendItem.${state}`),
            ].join(' · ')}
          </p>
          {state === 'blocked' && reason && (
            <p className="seat-map__details-why">{t(`seatMap.why.${reason}`)}</p>
          )}
        </>
      ) : (
        <p className="seat-map__details-more">{t('seatMap.detailsHint')}</p>
      )}
    </div>
  );
}

/** One seat as the buyer's map draws it (the seat-plan editor draws its seats the same way). */
export function SeatShape({
  kinds,
  state,
  tag,
}: {
  kinds: readonly SeatKind[];
  state: SeatState;
  tag?: string;
}) {
  if (tag !== undefined) {
    return (
      <>
        <rect className="seat__body" width={SEAT} height={SEAT} rx={2} />
        <text className="seat__glyph seat__tag" x={SEAT / 2} y={SEAT / 2} aria-hidden="true">
          {tag}
        </text>
      </>
    );
  }
  return (
    <>
      <rect className="seat__body" width={SEAT} height={SEAT} rx={2} />
      {state === 'taken' && (
        <path className="seat__mark" d="M 2.4 2.4 L 6 6 M 6 2.4 L 2.4 6" aria-hidden="true" />
      )}
      {state !== 'taken' && kinds.includes('wheelchair') && (
        <text className="seat__glyph" x={SEAT / 2} y={SEAT / 2} aria-hidden="true">
          ♿
        </text>
      )}
      {state !== 'taken' && kinds.includes('companion') && (
        <text className="seat__glyph" x={SEAT / 2} y={SEAT / 2} aria-hidden="true">
          +
        </text>
      )}
      {state !== 'taken' && kinds.includes('premium') && (
        <circle className="seat__premium-dot" cx={SEAT - 1.6} cy={1.6} r={1.2} />
      )}
    </>
  );
}

const LEGEND: { className: string; label: string; kinds: SeatKind[]; state: SeatState }[] = [
  { className: 'seat seat--available', label: 'available', kinds: [], state: 'available' },
  { className: 'seat seat--selected', label: 'selected', kinds: [], state: 'selected' },
  { className: 'seat seat--taken', label: 'taken', kinds: [], state: 'taken' },
  { className: 'seat seat--blocked', label: 'blocked', kinds: [], state: 'blocked' },
  {
    className: 'seat seat--available seat--premium',
    label: 'premium',
    kinds: ['premium'],
    state: 'available',
  },
  {
    className: 'seat seat--available seat--wheelchair',
    label: 'wheelchair',
    kinds: ['wheelchair'],
    state: 'available',
  },
  {
    className: 'seat seat--available seat--companion',
    label: 'companion',
    kinds: ['companion'],
    state: 'available',
  },
  {
    className: 'seat seat--available seat--limitedView',
    label: 'limitedView',
    kinds: ['limitedView'],
    state: 'available',
  },
  {
    className: 'seat seat--available seat--sofa',
    label: 'sofa',
    kinds: ['sofa'],
    state: 'available',
  },
];

export function SeatLegend({
  marks,
}: {
  marks?: readonly { tone: SeatMark['tone']; label: string }[];
}) {
  const { t } = useTranslation();
  return (
    <div className="seat-legend">
      <ul className="seat-legend__list" aria-label={t('seatMap.legend')}>
        {/* With marks, the buyer's own seats are the marks': "selected" would say it twice. */}
        {LEGEND.filter((entry) => !marks || entry.state !== 'selected').map((entry) => (
          <li key={entry.label} className="seat-legend__item">
            <svg className="seat-legend__swatch" viewBox="-1 -1 10.4 10.4" aria-hidden="true">
              {entry.kinds.includes('sofa') && (
                <rect className="seat-map__sofa" x={-1} y={-1} width={10.4} height={10.4} rx={3} />
              )}
              <g className={entry.className}>
                <SeatShape kinds={entry.kinds} state={entry.state} />
              </g>
            </svg>
            <span>{t(`seatMap.legendItem.${entry.label}` as 'seatMap.legendItem.available')}</span>
          </li>
        ))}
        {marks?.map((entry) => (
          <li key={entry.tone} className="seat-legend__item">
            <svg className="seat-legend__swatch" viewBox="-1 -1 10.4 10.4" aria-hidden="true">
              <g className={`seat seat--mark seat--mark-${entry.tone}`}>
                <SeatShape kinds={[]} state="available" tag="1" />
              </g>
            </svg>
            <span>{entry.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
