import { useMemo, useReducer, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FlowSteps } from '../../../components/checkout/FlowSteps';
import { Loading } from '../../../components/ui/Loading';
import {
  enrollSeatplanQuery,
  lockEnrollSeat,
  unlockEnrollSeat,
  type EnrollSeason,
  type EnrollSelectionsResponse,
} from '../../../lib/api/enroll';
import type { SeatShort } from '../../../lib/api/types';
import { useCaptcha } from '../../../lib/captcha';
import { formatClock, stamp } from '../../../lib/countdownClock';
import { formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { useRemaining } from '../../../lib/useRemaining';
import {
  blockedBecause,
  enrollReducer,
  heldButNotChosen,
  initialState,
  isFirstStep,
  memberSeat,
  missingSeats,
  priceOf,
  stepsOf,
  type EnrollAction,
  type EnrollState,
  type HeldAnswer,
} from '../model/flow';
import { enrollErrorWords } from '../refusal';
import { EnrollCheckout } from './EnrollCheckout';
import { PresentationName } from '../../../components/ui/PresentationName';
import { SeasonSeatMap } from './SeasonSeatMap';

/**
 * The steps of one member's enrolment: the member seat, the ticket, the presentations, a seat in
 * each, then the details and payment. The seats already held by this session (a reload) are read
 * from the member seat's map before the first step.
 */
export function EnrollFlow({
  season,
  memberNumber,
  onBack,
}: {
  season: EnrollSeason;
  memberNumber: string;
  onBack: (() => void) | null;
}) {
  const seed = useQuery(enrollSeatplanQuery(season.MembershipId, season.SeasonId, null));
  if (seed.isPending) return <Loading />;
  return (
    <Steps
      season={season}
      memberNumber={memberNumber}
      onBack={onBack}
      held={seed.data ? stamp(seed.data) : undefined}
    />
  );
}

function Steps({
  season,
  memberNumber,
  onBack,
  held,
}: {
  season: EnrollSeason;
  memberNumber: string;
  onBack: (() => void) | null;
  held: HeldAnswer | undefined;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const captcha = useCaptcha();
  const queryClient = useQueryClient();
  const reducer = useMemo(() => enrollReducer(season), [season]);
  const [state, dispatch] = useReducer(reducer, held, (h) => initialState(season, h));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const clock = state.clock;
  const remaining = useRemaining(clock?.expiresAt, clock?.serverTime ?? '', clock?.receivedAt ?? 0);
  const expired = remaining !== null && remaining <= 0;
  const presentations = season.Presentations;
  const hall = localizedName(
    lang,
    presentations[0]?.venueName ?? '',
    presentations[0]?.venueNameEn ?? '',
  );

  /** Runs a seat call; its answer is every seat this session now holds in the season. */
  async function seatCall(call: () => Promise<EnrollSelectionsResponse>) {
    setBusy(true);
    setError(null);
    try {
      const answer = await call();
      dispatch({ type: 'held', answer: stamp(answer) });
      return true;
    } catch (e) {
      setError(enrollErrorWords(t, e));
      return false;
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['enroll', season.MembershipId, 'seatplan'] });
    }
  }

  const seatBody = (seat: SeatShort, presentationId: number | null) => ({
    memberNumber,
    venueId: season.venueId,
    seatplanId: season.seatplanId,
    sectionId: seat.si,
    x: seat.x,
    y: seat.y,
    ticketGroupId: state.ticket?.groupId ?? season.DefaultTicketGroupId,
    seasonId: season.SeasonId,
    presentationId,
    // The server keeps its own record of the seats held (its answer's selections).
    selections: [],
  });

  const pick = (presentationId: number | null) => (seat: SeatShort) =>
    void seatCall(async () =>
      lockEnrollSeat(season.MembershipId, {
        recaptchaToken: await captcha('lockSeat'),
        ...seatBody(seat, presentationId),
      }),
    );

  async function next() {
    setError(null);
    // Leaving the presentations: the seats held in those left out are released first.
    if (state.step === 'presentations') {
      for (const s of heldButNotChosen(state)) {
        const ok = await seatCall(async () =>
          unlockEnrollSeat(season.MembershipId, {
            recaptchaToken: await captcha('unlockSeat'),
            ...seatBody({ si: s.sectionId, x: s.x, y: s.y } as SeatShort, s.presentationId),
          }),
        );
        if (!ok) return;
      }
    }
    dispatch({ type: 'next' });
  }

  const blocked = blockedBecause(season, state);
  const steps = stepsOf(season).map((key) => ({ key, label: t(`enroll.steps.${key}`) }));
  const first = isFirstStep(season, state);

  return (
    <>
      <FlowSteps steps={steps} current={state.step} />
      {remaining !== null && remaining > 0 && (
        <p className="enroll-clock">
          <span role="timer">{t('enroll.timeLeft', { time: formatClock(remaining) })}</span>
        </p>
      )}
      {expired && state.step !== 'details' ? (
        <div role="alert" className="enroll-expired">
          <p>{t('enroll.timeUp')}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => window.location.reload()}
          >
            {t('enroll.restart')}
          </button>
        </div>
      ) : (
        <>
          {state.step === 'memberSeat' && (
            <MemberSeatStep
              season={season}
              state={state}
              hall={hall}
              busy={busy}
              onPick={pick(null)}
            />
          )}
          {state.step === 'tickets' && (
            <TicketStep season={season} state={state} dispatch={dispatch} />
          )}
          {state.step === 'presentations' && (
            <PresentationsStep season={season} state={state} dispatch={dispatch} />
          )}
          {state.step === 'seats' && (
            <PresentationSeatsStep
              season={season}
              state={state}
              dispatch={dispatch}
              hall={hall}
              busy={busy}

              onPick={(id) => pick(id)}
            />
          )}
          {state.step === 'details' && state.ticket && (
            <EnrollCheckout
              season={season}
              memberNumber={memberNumber}
              state={state}

              onBack={() => dispatch({ type: 'previous' })}
              onClock={(c) => dispatch({ type: 'clock', clock: c })}
            />
          )}
        </>
      )}
      <p className="gift-checkout__error enroll-error" role="alert">
        {error}
      </p>
      {state.step !== 'details' && !expired && (
        <div className="gift-page__bar enroll-nav">
          {blocked && (
            <p className="gift-checkout__hint" id="enroll-blocked">
              {t(`enroll.blocked.${blocked}`)}
            </p>
          )}
          {(!first || onBack) && (
            <button
              type="button"
              className="button button--ghost"
              onClick={() => (first ? onBack?.() : dispatch({ type: 'previous' }))}
            >
              {t('enroll.previous')}
            </button>
          )}
          <button
            type="button"
            className="button button--primary"
            disabled={blocked !== null || busy}
            aria-describedby={blocked ? 'enroll-blocked' : undefined}
            onClick={() => void next()}
          >
            {t('enroll.next')}
          </button>
        </div>
      )}
    </>
  );
}

function MemberSeatStep({
  season,
  state,
  hall,
  busy,
  onPick,
}: {
  season: EnrollSeason;
  state: EnrollState;
  hall: string;
  busy: boolean;
  onPick: (seat: SeatShort) => void;
}) {
  const { t } = useTranslation();
  const seat = memberSeat(season, state);
  return (
    <section className="enroll-step" aria-labelledby="enroll-member-seat">
      <h2 id="enroll-member-seat" className="gift-checkout__heading">
        {t('enroll.memberSeat.title')}
      </h2>
      <p className="gift-page__lead">{t('enroll.memberSeat.lead')}</p>
      <p className="enroll-chosen" role="status">
        {seat
          ? t('enroll.memberSeat.chosen', { row: seat.rowName, seat: seat.seatName })
          : t('enroll.memberSeat.none')}
      </p>
      <SeasonSeatMap
        membershipId={season.MembershipId}
        seasonId={season.SeasonId}
        presentationId={null}
        hallName={hall}
        busy={busy}
        onPick={onPick}
      />
    </section>
  );
}

function TicketStep({
  season,
  state,
  dispatch,
}: {
  season: EnrollSeason;
  state: EnrollState;
  dispatch: (a: EnrollAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const money = (agorot: number) => formatMoney(agorot, lang);
  const one = season.Presentations.slice(0, 1).map((p) => p.PresentationId);
  return (
    <section className="enroll-step" aria-labelledby="enroll-tickets">
      <h2 id="enroll-tickets" className="gift-checkout__heading">
        {t('enroll.tickets.title')}
      </h2>
      <fieldset className="enroll-options">
        <legend>{t('enroll.tickets.lead')}</legend>
        {season.TicketGroups.flatMap((g) =>
          g.tickets.map((ticket) => {
            const price = priceOf(season, { groupId: g.id, ticketId: ticket.id }, one);
            return (
              <label key={`${g.id}:${ticket.id}`} className="enroll-option">
                <input
                  type="radio"
                  name="enroll-ticket"
                  checked={state.ticket?.groupId === g.id && state.ticket.ticketId === ticket.id}
                  onChange={() =>
                    dispatch({ type: 'ticket', ticket: { groupId: g.id, ticketId: ticket.id } })
                  }
                />
                <span>
                  <strong>{localizedName(lang, ticket.name, ticket.nameEn)}</strong>{' '}
                  <span className="enroll-option__note">
                    {t('enroll.tickets.price', { price: money(price.price) })}
                    {price.fromPass > 0 &&
                      ` · ${t('enroll.tickets.fromPass', { amount: money(price.fromPass) })}`}
                  </span>
                </span>
              </label>
            );
          }),
        )}
      </fieldset>
    </section>
  );
}

function PresentationsStep({
  season,
  state,
  dispatch,
}: {
  season: EnrollSeason;
  state: EnrollState;
  dispatch: (a: EnrollAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <section className="enroll-step" aria-labelledby="enroll-presentations">
      <h2 id="enroll-presentations" className="gift-checkout__heading">
        {t('enroll.presentations.title')}
      </h2>
      <fieldset className="enroll-options">
        <legend>{t('enroll.presentations.lead')}</legend>
        {season.Presentations.map((p) => (
          <label key={p.PresentationId} className="enroll-option">
            <input
              type="checkbox"
              checked={state.chosen.includes(p.PresentationId)}
              disabled={p.IsRequired}
              onChange={() => dispatch({ type: 'toggle', presentationId: p.PresentationId })}
            />
            <span>
              <PresentationName p={p} lang={lang} />{' '}
              <span className="enroll-option__note">
                {p.IsRequired
                  ? t('enroll.presentations.required')
                  : t('enroll.presentations.optional')}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}

function PresentationSeatsStep({
  season,
  state,
  dispatch,
  hall,
  busy,
  onPick,
}: {
  season: EnrollSeason;
  state: EnrollState;
  dispatch: (a: EnrollAction) => void;
  hall: string;
  busy: boolean;
  onPick: (presentationId: number) => (seat: SeatShort) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const missing = missingSeats(state);
  const shown = state.shown ?? state.chosen[0];
  return (
    <section className="enroll-step" aria-labelledby="enroll-seats">
      <h2 id="enroll-seats" className="gift-checkout__heading">
        {t('enroll.seats.title')}
      </h2>
      <p className="gift-page__lead">{t('enroll.seats.lead')}</p>
      <ul className="enroll-switcher" aria-label={t('enroll.seats.switcher')}>
        {state.chosen.map((id) => {
          const p = season.Presentations.find((x) => x.PresentationId === id);
          const s = state.selections[id];
          if (!p) return null;
          return (
            <li key={id}>
              <button
                type="button"
                className="enroll-switcher__item"
                aria-pressed={id === shown}
                onClick={() => dispatch({ type: 'show', presentationId: id })}
              >
                <PresentationName p={p} lang={lang} />{' '}
                <span
                  className={`enroll-switcher__seat${missing.includes(id) ? ' enroll-switcher__seat--missing' : ''}`}
                >
                  {s
                    ? t('enroll.seats.seat', { row: s.rowName, seat: s.seatName })
                    : t('enroll.seats.noSeat')}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {shown !== undefined && (
        <SeasonSeatMap
          key={shown}
          membershipId={season.MembershipId}
          seasonId={season.SeasonId}
          presentationId={shown}
          hallName={hall}
          busy={busy}
          onPick={onPick(shown)}
        />
      )}
    </section>
  );
}
