import { useTranslation } from 'react-i18next';
import type { Clock } from '../../lib/countdownClock';
import { formatClock } from '../../lib/countdownClock';
import { useRemaining } from '../../lib/useRemaining';

/** How long the member seat stays held, ticking; nothing once the clock has run out or is none. */
export function HoldClock({ clock }: { clock: Clock | null }) {
  const { t } = useTranslation();
  const remaining = useRemaining(clock?.expiresAt, clock?.serverTime ?? '', clock?.receivedAt ?? 0);
  if (remaining === null || remaining <= 0) return null;
  return (
    <p className="membership-seats__clock">
      <span role="timer">{t('membershipSeats.timeLeft', { time: formatClock(remaining) })}</span>
    </p>
  );
}
