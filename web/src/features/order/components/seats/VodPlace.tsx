import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Loading } from '../../../../components/ui/Loading';
import { Notice } from '../../../../components/ui/Notice';
import { ApiError } from '../../../../lib/api/client';
import { useCaptcha } from '../../../../lib/captcha';
import type { Presentation } from '../../../../lib/api/types';
import { errorMessage } from '../../../../lib/apiErrors';
import { myHoldsQuery, seatplanQuery, useLockSeat } from '../../api/seats';

/**
 * Video on demand has no seat to choose (decision 0053): its one home-viewing place is held for
 * the buyer at once, and the order goes on to the tickets step.
 */
export function VodPlace({
  presentation,
  onContinue,
}: {
  presentation: Presentation;
  onContinue: () => void;
}) {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const id = presentation.id;
  const plan = useQuery(
    seatplanQuery(presentation.venueId, presentation.seatplanId, captcha, presentation.id),
  );
  const holds = useQuery(myHoldsQuery(id));
  const lock = useLockSeat(id, captcha);
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const asked = useRef(false);

  const section = plan.data?.seatplan.sections.find((s) => s.kind === 'ga');
  const held = (holds.data?.seats.length ?? 0) > 0;

  useEffect(() => {
    if (held) {
      onContinue();
      return;
    }
    if (!section || !holds.data || asked.current) return;
    asked.current = true;
    lock.mutate(
      {
        key: `ga:${section.id}`,
        ref: {
          PresentationId: id,
          VenueId: presentation.venueId,
          VenueSeatplanId: presentation.seatplanId,
          VenueSectionId: section.id,
          TicketGroupId: section.ticketGroupId ?? null,
          XCoordinate: 0,
          YCoordinate: 0,
        },
      },
      { onSuccess: onContinue, onError: setFailure },
    );
  }, [held, section, holds.data, id, presentation, lock, onContinue, attempt]);

  const error = failure ?? plan.error ?? holds.error;
  if (error) {
    return (
      <Notice title={t('vod.placeError')} headingLevel={2} tone="error">
        <p>
          {error instanceof ApiError && error.status === 400
            ? t('errors.recaptchaRequired')
            : errorMessage(t, error)}
        </p>
        <p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              asked.current = false;
              setFailure(null);
              setAttempt((n) => n + 1);
            }}
          >
            {t('whatsOn.retry')}
          </button>
        </p>
      </Notice>
    );
  }
  return <Loading />;
}
