import { useEffect, useMemo, useReducer } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { SeatMap, type SeatMark } from '../../../components/seat-map/SeatMap';
import { seatplanQuery, useLiveSeatStatus } from '../../../lib/api/seats';
import { blockReasons, stateOf, type SeatState } from '../../../components/seat-map/seatModel';
import { seatKey } from '../../../lib/seatAddress';
import { LangLink } from '../../../components/ui/LangLink';
import { Loading } from '../../../components/ui/Loading';
import { ApiError } from '../../../lib/api/client';
import type { Reservation } from '../../../lib/api/reservations';
import { reservationPath } from '../../../lib/api/reservations';
import type { Presentation } from '../../../lib/api/types';
import { errorMessage } from '../../../lib/apiErrors';
import { useCaptcha } from '../../../lib/captcha';
import { withLang } from '../../../lib/lang';
import { localizedName } from '../../../lib/localized';
import { useModifyReservation } from '../api/modify';
import {
  changeReducer,
  initialChange,
  marksOf,
  modifyBody,
  movableTickets,
  summaryOf,
} from '../model/seatChange';

/** Codes this screen has its own words for (the seat change's refusals). */
const OWN_WORDS = [
  'lock_seat_error',
  'singleSeatGap',
  'sofaSplit',
  'mixedPriceLevels',
  'ticketSeatKind',
  'ticketing_ended',
  'reservationChanged',
] as const;

/**
 * One presentation of the reservation: its live seat map with the buyer's tickets marked, the
 * tickets to pick from, the change so far (old seat → new seat) and its confirmation. Back on the
 * reservation page once the server has moved them.
 */
export function SeatChanger({
  reservation,
  presentation,
}: {
  reservation: Reservation;
  presentation: Presentation;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const navigate = useNavigate();
  const langParam = useSearchParams()[0].get('lang');
  const captcha = useCaptcha();
  const id = reservation.ReservationIdentifier;
  const plan = useQuery(
    seatplanQuery(presentation.venueId, presentation.seatplanId, captcha, presentation.id),
  );
  const { status, live } = useLiveSeatStatus(presentation.id, plan.data?.seatplan.seats);
  const modify = useModifyReservation(id, presentation.id);

  const groups = useMemo(
    () => new Map((plan.data?.seatplan.seats ?? []).map((s) => [seatKey(s), s.tg])),
    [plan.data],
  );
  const tickets = useMemo(
    () => movableTickets(reservation.seats, presentation.id, (key) => groups.get(key) ?? null),
    [reservation.seats, presentation.id, groups],
  );
  const [state, dispatch] = useReducer(changeReducer, tickets, initialChange);
  // A new read of the reservation (after a refused change) or the plan arriving: start again.
  const signature = tickets.map((tk) => `${tk.line}:${tk.sectionId}:${tk.x}:${tk.y}`).join('|');
  useEffect(() => dispatch({ type: 'reset', tickets }), [signature]); // eslint-disable-line react-hooks/exhaustive-deps

  const states = useMemo(() => {
    const map = new Map<string, SeatState>();
    for (const s of status.data?.seats ?? []) map.set(seatKey(s), stateOf(s));
    return map;
  }, [status.data]);
  const reasons = useMemo(() => blockReasons(status.data?.seats ?? []), [status.data]);

  // A new seat someone else took meanwhile (the live map says so) is no longer the buyer's choice.
  const lost = summaryOf(state)
    .map(({ to }) => seatKey({ si: to.sectionId, x: to.x, y: to.y }))
    .filter((key) => {
      const s = states.get(key);
      return s !== undefined && s !== 'available';
    });
  const lostKey = lost.join('|');
  useEffect(() => {
    if (lost.length > 0) dispatch({ type: 'seatsLost', keys: lost });
  }, [lostKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const marks = marksOf(state, (tone, tag) => t(`seatChange.mark.${tone}`, { tag }));
  const summary = summaryOf(state);
  const error = modify.error;
  const errorWords =
    error instanceof ApiError && (OWN_WORDS as readonly string[]).includes(error.code)
      ? t(`seatChange.errors.${error.code as (typeof OWN_WORDS)[number]}`)
      : error
        ? errorMessage(t, error)
        : null;

  const confirm = () => {
    if (!reservation.lastTransactionId || summary.length === 0) return;
    modify.mutate(modifyBody(id, reservation.lastTransactionId, state), {
      onSuccess: () => void navigate(withLang(`${reservationPath(id)}?seatsChanged=1`, langParam)),
      onError: (e) => {
        const p = e instanceof ApiError ? e.params : undefined;
        if (
          p &&
          typeof p.sectionId === 'number' &&
          typeof p.x === 'number' &&
          typeof p.y === 'number'
        ) {
          dispatch({
            type: 'seatsLost',
            keys: [seatKey({ sectionId: p.sectionId, x: p.x, y: p.y })],
          });
        }
      },
    });
  };

  if (plan.isPending) return <Loading />;
  if (plan.isError) return <p role="alert">{errorMessage(t, plan.error)}</p>;
  const legend: { tone: SeatMark['tone']; label: string }[] = [
    { tone: 'yours', label: t('seatChange.legend.yours') },
    { tone: 'leaving', label: t('seatChange.legend.leaving') },
    { tone: 'new', label: t('seatChange.legend.new') },
  ];

  return (
    <div className="seat-change" data-live={live}>
      <div className="seat-change__map">
        <p className="seat-change__intro">
          {t(tickets.length === 1 ? 'seatChange.introOne' : 'seatChange.intro')}
        </p>
        <SeatMap
          plan={plan.data.seatplan}
          states={states}
          reasons={reasons}
          marks={marks}
          markLegend={legend}
          name={localizedName(lang, presentation.venueName, presentation.venueNameEn)}
          onSeatActivate={(seat) =>
            dispatch({
              type: 'tapSeat',
              seat: {
                sectionId: seat.si,
                x: seat.x,
                y: seat.y,
                row: seat.r,
                seat: seat.n,
                ticketGroupId: seat.tg,
              },
            })
          }
        />
        <p className="seat-change__hint" role="status">
          {state.hint ? t(`seatChange.hint.${state.hint}`) : ''}
        </p>
      </div>
      <div className="seat-change__side">
        <section className="seat-change__tickets" aria-labelledby="seat-change-tickets">
          <h2 id="seat-change-tickets" className="seat-change__heading">
            {t('seatChange.tickets')}
          </h2>
          <ul className="seat-change__list">
            {state.tickets.map((ticket) => {
              const to = state.moves.get(ticket.line);
              const picked = state.picked === ticket.line;
              return (
                <li
                  key={ticket.line}
                  className={`seat-change__ticket${picked ? ' seat-change__ticket--picked' : ''}`}
                >
                  <span className="seat-change__tag" aria-hidden="true">
                    {ticket.tag}
                  </span>
                  <span className="seat-change__what">
                    <strong>{t('seatChange.ticket', { tag: ticket.tag })}</strong>{' '}
                    {t('seatChange.ticketSeat', { row: ticket.row, seat: ticket.seat })}
                    {to && (
                      <span className="seat-change__to">
                        {' '}
                        {t('seatChange.moves', { row: to.row, seat: to.seat })}
                      </span>
                    )}
                    {picked && !to && (
                      <span className="seat-change__picked"> · {t('seatChange.picked')}</span>
                    )}
                  </span>
                  {to ? (
                    <button
                      type="button"
                      className="button button--ghost seat-change__action"
                      onClick={() => dispatch({ type: 'undo', line: ticket.line })}
                    >
                      {t('seatChange.undo')}
                      <span className="visually-hidden">
                        {` (${t('seatChange.ticket', { tag: ticket.tag })})`}
                      </span>
                    </button>
                  ) : (
                    state.tickets.length > 1 && (
                      <button
                        type="button"
                        className="button button--ghost seat-change__action"
                        aria-pressed={picked}
                        onClick={() => dispatch({ type: 'pickTicket', line: ticket.line })}
                      >
                        {t('seatChange.pick')}
                        <span className="visually-hidden">
                          {` (${t('seatChange.ticket', { tag: ticket.tag })})`}
                        </span>
                      </button>
                    )
                  )}
                </li>
              );
            })}
          </ul>
        </section>

        <section className="seat-change__summary" aria-labelledby="seat-change-summary">
          <h2 id="seat-change-summary" className="seat-change__heading">
            {t('seatChange.summary')}
          </h2>
          {summary.length === 0 ? (
            <p>{t('seatChange.nothingYet')}</p>
          ) : (
            <ul className="seat-change__moves">
              {summary.map(({ ticket, to }) => (
                <li key={ticket.line}>
                  {t('seatChange.summaryLine', {
                    tag: ticket.tag,
                    fromRow: ticket.row,
                    fromSeat: ticket.seat,
                    toRow: to.row,
                    toSeat: to.seat,
                  })}
                </li>
              ))}
            </ul>
          )}
          <p className="seat-change__notice">{t('seatChange.notice')}</p>
          {errorWords && (
            <p className="seat-change__error" role="alert">
              {errorWords}
            </p>
          )}
          <div className="seat-change__buttons">
            <button
              type="button"
              className="button button--primary"
              disabled={summary.length === 0 || modify.isPending}
              onClick={confirm}
            >
              {modify.isPending ? t('seatChange.confirming') : t('seatChange.confirm')}
            </button>
            <LangLink className="button button--ghost" to={reservationPath(id)}>
              {t('seatChange.cancel')}
            </LangLink>
          </div>
        </section>
      </div>
    </div>
  );
}
