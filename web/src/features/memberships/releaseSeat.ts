import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { meQuery } from '../../lib/api/customer';
import {
  membershipKeys,
  membershipSeatplanQuery,
  unlockMembershipSeat,
  type Membership,
} from '../../lib/api/memberships';
import { useCaptcha } from '../../lib/captcha';

/**
 * Lets go of the seat a logged-in buyer holds for a seated membership taken out of the choice, so
 * it is free for others at once rather than when its hold runs out. Best effort: nobody logged
 * in, nothing held or a failed call leave the hold to run out by itself.
 */
export function useReleaseSeat(): (m: Membership) => Promise<void> {
  const queryClient = useQueryClient();
  const captcha = useCaptcha();
  return useCallback(
    async (m: Membership) => {
      const first = m.seats?.presentations[0];
      if (!first) return;
      try {
        const me = await queryClient.fetchQuery(meQuery);
        if (!me?.customerInfo) return;
        const map = await queryClient.fetchQuery(membershipSeatplanQuery(m.MembershipId));
        const seat = map.selections[0];
        if (!seat) return;
        await unlockMembershipSeat({
          recaptchaToken: await captcha('unlockSeat'),
          membershipId: m.MembershipId,
          venueId: first.venueId,
          seatplanId: first.seatplanId,
          sectionId: seat.sectionId,
          x: seat.x,
          y: seat.y,
        });
        await queryClient.invalidateQueries({ queryKey: membershipKeys.seatplan(m.MembershipId) });
      } catch {
        // The hold runs out by itself.
      }
    },
    [queryClient, captcha],
  );
}
