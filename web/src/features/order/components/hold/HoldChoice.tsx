import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../../components/ui/DateTime';
import { ApiError } from '../../../../lib/api/client';
import { meQuery } from '../../../../lib/api/customer';
import { commitHold, holdKeys } from '../../../../lib/api/holds';
import { errorMessage } from '../../../../lib/apiErrors';
import type { Captcha } from '../../../../lib/captcha';
import { useOrder } from '../../hooks/orderContext';
import { clearDetails, clearOrder } from '../../model/orderSession';
import { goToHold } from './goToHold';
import './HoldChoice.css';

/** A hold is paid and collected at least this long before the event (spec section 9). */
const HOLD_CLOSES_BEFORE_MS = 30 * 60_000;

/**
 * "Reserve now, pay later" (the cart's isHold), offered at checkout to a logged-in customer with
 * an active membership while there is time to pay before the event. The server decides (login,
 * membership, no premium seat, the time); a refusal is said here and the regular payment stays
 * the way on. Held, the order moves to the hold's own page.
 */
export function HoldChoice({
  presentationId,
  captcha,
  payButtonClass,
}: {
  presentationId: number;
  captcha: Captcha;
  /** The regular Pay button's class, focused when the buyer takes the offer to pay now. */
  payButtonClass: string;
}) {
  const { t, i18n } = useTranslation();
  const { presentation } = useOrder();
  const me = useQuery(meQuery);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  // When the step was shown: the offer is not made when the time to pay has gone already (the
  // server judges by its own clock anyway).
  const [shownAt] = useState(() => Date.now());
  const [refusal, setRefusal] = useState<{ message: string; offer: boolean } | null>(null);

  const members = me.data?.customerInfo?.Members ?? [];
  const isMember = members.some((m) => !m.isExpired && !m.isNotStarted);
  const payBy = new Date(Date.parse(presentation.dateTime) - HOLD_CLOSES_BEFORE_MS);
  if (!isMember || payBy.getTime() <= shownAt) return null;

  async function hold() {
    setBusy(true);
    setRefusal(null);
    try {
      const answer = await commitHold(presentationId, await captcha('commit'));
      clearOrder(presentationId);
      clearDetails(presentationId);
      void queryClient.invalidateQueries({ queryKey: holdKeys.all });
      goToHold(answer.reservationIdentifier);
    } catch (e) {
      const offer = e instanceof ApiError && e.params?.offer === 'regularOrder';
      setRefusal({ message: errorMessage(t, e), offer });
      setBusy(false);
    }
  }

  function payNowInstead() {
    document.querySelector<HTMLButtonElement>(`.${payButtonClass}`)?.focus();
  }

  return (
    <section className="payment-step__section hold-choice" aria-labelledby="hold-choice-title">
      <h2 id="hold-choice-title" className="payment-step__heading">
        {t('holds.choiceTitle')}
      </h2>
      <p className="hold-choice__text">
        {t('holds.choiceText')} <DateTime iso={payBy.toISOString()} lang={i18n.language} />
      </p>
      <button
        type="button"
        className="button button--ghost hold-choice__button"
        disabled={busy}
        onClick={() => void hold()}
      >
        {t('holds.choiceButton')}
      </button>
      <div className="hold-choice__refusal" role="alert">
        {refusal && (
          <>
            <p>{refusal.message}</p>
            {refusal.offer && (
              <button type="button" className="button button--primary" onClick={payNowInstead}>
                {t('holds.payNowInstead')}
              </button>
            )}
          </>
        )}
      </div>
    </section>
  );
}
