import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLangHref } from '../../../../lib/lang';
import { clearsCart, keepScreening } from '../../model/earlierScreenings';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loading } from '../../../../components/ui/Loading';
import { Notice } from '../../../../components/ui/Notice';
import { CheckoutLogin } from '../login/CheckoutLogin';
import { ApiError } from '../../../../lib/api/client';
import { customerKeys, meQuery } from '../../../../lib/api/customer';
import { useLogout } from '../../api/customer';
import { useCaptcha } from '../../../../lib/captcha';
import type { LockedSeat, Ticket } from '../../../../lib/api/types';
import { localizedName } from '../../../../lib/localized';
import { orderErrorMessage } from '../../model/cartErrors';
import { perOrderChargeText, priceText } from '../../model/priceText';
import { StepHead, TimeExpired } from '../StepHead';
import { useRemaining } from '../../../../lib/useRemaining';
import {
  myHoldsQuery,
  seatKeys,
  seatplanQuery,
  stamp,
  useSeatsOnTheirWay,
  useUnlockSeat,
} from '../../api/seats';
import { ticketGroupsQuery, usePostCart } from '../../api/tickets';
import { seatKey } from '../../../../lib/seatAddress';
import {
  cartBody,
  hasRefPrompt,
  lineProblem,
  linesPrice,
  lineTicket,
  syncLines,
  ticketsForLine,
  type LineProblem,
  type TicketLine,
} from '../../model/ticketLines';
import type { Clock } from '../../../../lib/countdownClock';
import { useOrder } from '../../hooks/orderContext';
import {
  draftOfLines,
  loadTicketDraft,
  restoreDraft,
  saveTicketDraft,
} from '../../model/ticketDraft';
import { CodeMenu } from './CodeMenu';
import { LineField } from './LineField';
import { MemberLookup } from './MemberLookup';
import { QuantityChooser, TicketLabel } from './QuantityChooser';
import { EarlierScreenings } from './EarlierScreenings';
import './TicketsStep.css';

export function TicketsStep() {
  const { presentation, state, dispatch, restart } = useOrder();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const captcha = useCaptcha();
  const queryClient = useQueryClient();
  const id = presentation.id;
  const hasProducts = (presentation.products?.length ?? 0) > 0;

  const plan = useQuery(
    seatplanQuery(presentation.venueId, presentation.seatplanId, captcha, presentation.id),
  );
  const holds = useQuery(myHoldsQuery(id));
  const memberNumber = state.draft.memberNumber;
  const setMemberNumber = (next: string) =>
    dispatch({ type: 'memberNumberApplied', memberNumber: next });
  // The choices kept in this tab (a reload, a language switch) come back once the seats and the
  // tickets are known; from then on every change is kept.
  const [kept] = useState(() => loadTicketDraft(id));
  const [memberInput, setMemberInput] = useState(memberNumber || (kept?.memberNumber ?? ''));
  const base = useQuery(ticketGroupsQuery(id));
  const member = useQuery({ ...ticketGroupsQuery(id, memberNumber), enabled: memberNumber !== '' });
  const listed = memberNumber !== '' && member.data ? member.data : base.data;
  const groups = useMemo(() => listed?.ticketGroups ?? [], [listed]);
  const charge = listed?.serviceCharge;

  const stored = state.draft.lines;
  const setLines = (next: TicketLine[]) => dispatch({ type: 'ticketLinesChanged', lines: next });
  const onBack = () => dispatch({ type: 'wentTo', step: 'seats' });
  const [message, setMessage] = useState<string | null>(null);
  const [problems, setProblems] = useState<ReadonlyMap<string, LineProblem>>(new Map());
  const postCart = usePostCart();
  const unlockSeat = useUnlockSeat(id, captcha);
  const removing = useSeatsOnTheirWay(id);
  const logout = useLogout();
  const busy = postCart.isPending;
  // Member tickets need the member logged in on this session (the cart answers loginError).
  const [needLogin, setNeedLogin] = useState(false);
  const me = useQuery(meQuery);

  const held = holds.data?.seats;
  const seatplan = plan.data?.seatplan;
  // One line per seat still held (a seat released here or elsewhere drops out), keeping the
  // buyer's choices.
  const lines = useMemo(() => {
    if (!held || !seatplan || groups.length === 0) return stored;
    const groupOf = (seat: LockedSeat) => {
      const section = seatplan.sections.find((s) => s.id === seat.sectionId);
      if (section?.kind === 'ga') return section.ticketGroupId;
      const s = seatplan.seats.find(
        (p) => p.si === seat.sectionId && p.x === seat.x && p.y === seat.y,
      );
      return s?.tg ?? section?.ticketGroupId;
    };
    return syncLines(stored, held, groupOf, groups);
  }, [stored, held, seatplan, groups]);

  const restored = useRef(kept === null);
  const keptMember = kept?.memberNumber ?? '';
  const listedForKept =
    keptMember === '' || (memberNumber === keptMember && (member.isSuccess || member.isError));
  useEffect(() => {
    if (restored.current || !kept) return;
    if (keptMember !== '' && memberNumber === '') {
      setMemberNumber(keptMember);
      return;
    }
    if (!held || !seatplan || groups.length === 0 || !listedForKept) return;
    restored.current = true;
    const next = restoreDraft(lines, kept, groups);
    if (next.some((l, i) => l !== lines[i])) setLines(next);
    // Once, when the data is in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [held, seatplan, groups, listedForKept]);
  useEffect(() => {
    if (restored.current && held && groups.length > 0)
      saveTicketDraft(id, draftOfLines(lines, memberNumber));
  }, [held, groups, id, lines, memberNumber]);

  const holdsClock: Clock | null = holds.data?.expiresAt
    ? {
        expiresAt: holds.data.expiresAt,
        serverTime: holds.data.serverTime,
        receivedAt: holds.data.receivedAt,
      }
    : null;
  // The cart's timer once it was posted; before that, the holds'.
  const activeClock = state.clock ?? holdsClock;
  const remaining = useRemaining(
    activeClock?.expiresAt,
    activeClock?.serverTime ?? '',
    activeClock?.receivedAt ?? 0,
  );

  const allTickets = useMemo(() => {
    const map = new Map<number, Ticket>();
    for (const g of groups) for (const tk of g.tickets) map.set(tk.id, tk);
    for (const l of lines) if (l.code) map.set(l.code.ticket.id, l.code.ticket);
    return map;
  }, [groups, lines]);
  const ticketName = (ticketId: number) => {
    const tk = allTickets.get(ticketId);
    return tk ? localizedName(lang, tk.name, tk.nameEn) : '';
  };
  const ticketSeatKind = (ticketId: number) => allTickets.get(ticketId)?.seatKind;

  const sectionName = (sectionId: number) => {
    const section = seatplan?.sections.find((s) => s.id === sectionId);
    return section ? localizedName(lang, section.name, section.nameEn) : '';
  };
  const seatWhere = (seat: LockedSeat) =>
    seat.rowName
      ? t('order.seats.heldSeat', { row: seat.rowName, seat: seat.seatName })
      : t('order.seats.heldPlace', { place: seat.seatName });

  const update = (key: string, change: Partial<TicketLine>) => {
    setLines(lines.map((l) => (l.key === key ? { ...l, ...change } : l)));
    setProblems((old) => {
      if (!old.has(key)) return old;
      const next = new Map(old);
      next.delete(key);
      return next;
    });
  };

  const removeSeat = (line: TicketLine) => {
    setMessage(null);
    const ref = {
      PresentationId: id,
      VenueId: presentation.venueId,
      VenueSeatplanId: presentation.seatplanId,
      VenueSectionId: line.seat.sectionId,
      TicketGroupId: line.ticketGroupId,
      XCoordinate: line.seat.x,
      YCoordinate: line.seat.y,
    };
    unlockSeat.mutate(
      { ref, key: line.key },
      {
        onSuccess: (answer) => {
          const gone = new Set(answer.unlockedSeats.map(seatKey));
          const kept = (held ?? []).filter((s) => !gone.has(seatKey(s)));
          // The kinds of seat the others serve may change with it (no companion seat without its
          // wheelchair place): the server says again.
          if (kept.length > 0) void queryClient.invalidateQueries({ queryKey: seatKeys.holds(id) });
          else onBack();
        },
        onError: (error) => setMessage(orderErrorMessage(t, error)),
      },
    );
  };

  const addScreeningHref = useLangHref('/');
  const navigate = useNavigate();

  /** The lines are whole (each seat has its ticket): marks the ones that are not. */
  const linesAreWhole = () => {
    setMessage(null);
    const found = new Map<string, LineProblem>();
    for (const l of lines) {
      const problem = lineProblem(l, groups);
      if (problem) found.set(l.key, problem);
    }
    setProblems(found);
    if (found.size > 0) setMessage(t('order.tickets.fixLines'));
    return found.size === 0;
  };

  /**
   * The ticket list's add-presentation button: this screening's seats and tickets are priced with
   * the cart so far and kept, and the buyer chooses another screening; its cart is posted with
   * them (one order, one payment).
   */
  const addScreening = () => {
    if (!linesAreWhole()) return;
    const body = cartBody(id, lines, groups, { step: 'tickets', locale: lang, memberNumber });
    const part = body.cart.presentations.find((p) => p.presentationId === id);
    if (!part) return;
    postCart.mutate(body, {
      onSuccess: () => {
        keepScreening({
          presentationId: id,
          featureName: presentation.featureName,
          featureNameEn: presentation.featureNameEn ?? '',
          dateTime: presentation.dateTime,
          part,
        });
        void navigate(addScreeningHref);
      },
      onError: (error) => setMessage(orderErrorMessage(t, error, ticketName, ticketSeatKind)),
    });
  };

  const submit = () => {
    setMessage(null);
    const found = new Map<string, LineProblem>();
    for (const l of lines) {
      const problem = lineProblem(l, groups);
      if (problem) found.set(l.key, problem);
    }
    setProblems(found);
    if (found.size > 0) {
      setMessage(t('order.tickets.fixLines'));
      return;
    }
    const body = cartBody(id, lines, groups, {
      step: hasProducts ? 'products' : 'customerInfo',
      locale: lang,
      memberNumber,
    });
    postCart.mutate(body, {
      onSuccess: (answer) =>
        dispatch({
          type: 'ticketsPriced',
          choice: { lines, memberNumber, groups },
          answer: stamp(answer),
        }),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'loginError') {
          queryClient.setQueryData(customerKeys.me, null);
          setNeedLogin(true);
          return;
        }
        setMessage(orderErrorMessage(t, error, ticketName, ticketSeatKind));
      },
    });
  };

  if (plan.isPending || holds.isPending || base.isPending) return <Loading />;
  if (plan.isError || holds.isError || base.isError) {
    return (
      <Notice title={t('order.tickets.loadError')} headingLevel={2} tone="error">
        <p>{orderErrorMessage(t, plan.error ?? holds.error ?? base.error)}</p>
      </Notice>
    );
  }

  const expired = remaining !== null && remaining <= 0;
  const currency = groups[0]?.tickets[0]?.currency ?? 'ILS';
  const subtotal = priceText(t, lang, linesPrice(lines, groups), {
    currency,
    chargeName: charge?.name,
  });
  const perOrder = perOrderChargeText(t, lang, charge);
  const lineGroups = [...new Set(lines.map((l) => l.ticketGroupId))];
  const ticketOptionText = (tk: Ticket) =>
    `${localizedName(lang, tk.name, tk.nameEn)} · ${priceText(t, lang, tk, { currency: tk.currency, chargeName: charge?.name }).full}`;
  // What the buyer has chosen, "2 × Regular, 1 × Child", in the order of the group's tickets.
  const chosen = [...allTickets.values()].flatMap((ticket) => {
    const count = lines.filter((l) => lineTicket(l, groups)?.id === ticket.id).length;
    return count > 0 ? [{ ticket, count }] : [];
  });
  const continueWhy = busy
    ? null
    : expired
      ? t('order.why.expired')
      : lines.length === 0
        ? t('order.why.noSeats')
        : null;

  return (
    <section className="tickets-step" aria-labelledby="tickets-step-title">
      <StepHead id="tickets-step-title" title={t('order.tickets.title')} remaining={remaining} />

      {expired && <TimeExpired onRestart={restart} />}

      <div className="tickets-step__main">
        {/* A film at home is one place: its ticket is chosen below, not counted. */}
        {(presentation.isVod ? [] : lineGroups).map((groupId) => (
          <QuantityChooser
            key={groupId}
            groupId={groupId}
            title={
              lineGroups.length > 1
                ? localizedName(
                    lang,
                    groups.find((g) => g.id === groupId)?.name ?? '',
                    groups.find((g) => g.id === groupId)?.nameEn,
                  )
                : null
            }
            lines={lines}
            groups={groups}
            chargeName={charge?.name}
            disabled={busy}
            onChange={setLines}
          />
        ))}

        <h3 className="tickets-step__subtitle">
          {t(presentation.isVod ? 'vod.tickets.title' : 'order.tickets.seatsTitle')}
        </h3>
        <ol className="tickets-step__lines">
          {lines.map((line) => {
            const ticket = lineTicket(line, groups);
            // A film watched at home holds a place that is no seat: it is named as what it is.
            const where = presentation.isVod
              ? t('vod.tickets.line')
              : `${sectionName(line.seat.sectionId)} ${seatWhere(line.seat)}`;
            const problem = problems.get(line.key);
            const selectId = `ticket-${line.key}`;
            return (
              <li key={line.key} className="tickets-step__line">
                <div
                  role="group"
                  className="tickets-step__seat"
                  aria-labelledby={`seat-${line.key}`}
                  aria-invalid={problem === 'noTicket' || undefined}
                >
                  <div className="tickets-step__seat-head">
                    <h4 id={`seat-${line.key}`} className="tickets-step__seat-name">
                      {where}
                    </h4>
                    {line.code ? (
                      <div className="tickets-step__code-ticket">
                        <TicketLabel ticket={line.code.ticket} chargeName={charge?.name} />
                        <p className="tickets-step__muted">
                          {t('order.tickets.byCode', {
                            code: line.code.code,
                            label: localizedName(lang, line.code.label, line.code.labelEn),
                          })}
                        </p>
                      </div>
                    ) : (
                      <span className="tickets-step__seat-ticket">
                        <label htmlFor={selectId} className="visually-hidden">
                          {t('order.tickets.ticketFor', { seat: where })}
                        </label>
                        <select
                          id={selectId}
                          className="tickets-step__select"
                          value={line.ticketId ?? ''}
                          aria-invalid={problem === 'noTicket' || undefined}
                          disabled={busy}
                          onChange={(e) =>
                            update(line.key, {
                              ticketId: e.target.value === '' ? null : Number(e.target.value),
                            })
                          }
                        >
                          {line.ticketId === null && (
                            <option value="">{t('order.tickets.noTicketYet')}</option>
                          )}
                          {ticketsForLine(line, groups).map((tk) => (
                            <option key={tk.id} value={tk.id}>
                              {ticketOptionText(tk)}
                            </option>
                          ))}
                        </select>
                      </span>
                    )}
                    <button
                      type="button"
                      className="tool-button tickets-step__remove"
                      disabled={removing.has(line.key) || busy}
                      aria-label={t('order.seats.release', { seat: where })}
                      onClick={() => removeSeat(line)}
                    >
                      ×
                    </button>
                  </div>
                  {ticket?.needsSeniorId && (
                    <LineField
                      label={t('order.tickets.seniorId')}
                      hint={t('order.tickets.seniorIdHint')}
                      value={line.seniorId}
                      inputMode="numeric"
                      maxLength={9}
                      error={problem === 'seniorId' ? t('validation.seniorIdRequired') : null}
                      onChange={(value) => update(line.key, { seniorId: value })}
                    />
                  )}
                  {ticket && hasRefPrompt(ticket) && (
                    <LineField
                      label={localizedName(lang, ticket.refPrompt, ticket.refPromptEn)}
                      value={line.ref1}
                      maxLength={40}
                      error={problem === 'reference' ? t('validation.mandatoryField') : null}
                      onChange={(value) => update(line.key, { ref1: value })}
                    />
                  )}
                  {problem === 'noTicket' && (
                    <p className="tickets-step__field-error">{t('order.tickets.chooseTicket')}</p>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
        <CodeMenu
          presentationId={id}
          lines={lines}
          captcha={captcha}
          onApplied={setLines}
          disabled={busy}
        />

        <MemberLookup
          value={memberInput}
          onChange={setMemberInput}
          active={memberNumber}
          pending={member.isFetching}
          error={memberNumber !== '' && member.isError ? orderErrorMessage(t, member.error) : null}
          onApply={() => setMemberNumber(memberInput.trim())}
          onClear={() => {
            setMemberNumber('');
            setMemberInput('');
          }}
        />

        {me.data && !needLogin && (
          <p className="tickets-step__muted tickets-step__login" role="status">
            {t('login.loggedIn', {
              name:
                `${me.data.customerInfo?.FirstName ?? ''} ${me.data.customerInfo?.LastName ?? ''}`.trim() ||
                me.data.mobileNumber,
            })}{' '}
            <button
              type="button"
              className="button button--ghost"
              disabled={busy}
              onClick={() => logout.mutate()}
            >
              {t('login.logout')}
            </button>
          </p>
        )}

        {needLogin && (
          <CheckoutLogin
            reason="member"
            captcha={captcha}
            onCancel={() => setNeedLogin(false)}
            onLoggedIn={() => {
              setNeedLogin(false);
              submit();
            }}
          />
        )}

        <EarlierScreenings currentId={id} disabled={busy} />

        <div role="alert" className="tickets-step__alert" hidden={!message}>
          {message && <p className="tickets-step__alert-text">{message}</p>}
        </div>
      </div>

      <div className="tickets-step__footer">
        {chosen.length > 0 && (
          <p className="tickets-step__chosen">
            {chosen
              .map(({ ticket, count }) =>
                t('order.tickets.chosenLine', {
                  count,
                  ticket: localizedName(lang, ticket.name, ticket.nameEn),
                }),
              )
              .join(', ')}
          </p>
        )}
        <div className="tickets-step__total">
          <p className="tickets-step__total-line">
            <span>{t('order.tickets.total')}</span> <strong>{subtotal.full}</strong>
          </p>
          {subtotal.included && <p className="tickets-step__muted">{subtotal.included}</p>}
          {perOrder && <p className="tickets-step__muted">{perOrder}</p>}
        </div>
        <div className="tickets-step__actions">
          {!presentation.isVod && (
            <button type="button" className="button button--ghost" onClick={onBack} disabled={busy}>
              {t('order.back')}
            </button>
          )}
          {/* A rental or purchase of venue type 101 or 102 is bought on its own (spec 4). */}
          {!clearsCart(presentation.venueTypeId) && (
            <button
              type="button"
              className="button"
              onClick={addScreening}
              disabled={busy || expired || lines.length === 0}
            >
              {t('orderLines.addScreening')}
            </button>
          )}
          <button
            type="button"
            className="button button--primary"
            onClick={submit}
            disabled={busy || expired || lines.length === 0}
            aria-describedby={continueWhy ? 'tickets-continue-why' : undefined}
          >
            {t('order.continue')}
          </button>
        </div>
        {continueWhy && (
          <p id="tickets-continue-why" className="continue-why">
            {continueWhy}
          </p>
        )}
      </div>
    </section>
  );
}
