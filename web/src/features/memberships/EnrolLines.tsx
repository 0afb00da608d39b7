import { useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { meQuery } from '../../lib/api/customer';
import { enrollSeasonQuery } from '../../lib/api/enroll';
import type { Membership } from '../../lib/api/memberships';
import { localizedName } from '../../lib/localized';

/**
 * A line for each membership with a season open for enrolment that the customer logged in holds
 * a member of: its way to the enrolment. Nobody logged in, nothing to ask (the call needs a login).
 */
export function EnrolLines({ memberships }: { memberships: readonly Membership[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const me = useQuery(meQuery);
  const loggedIn = me.data?.customerInfo != null;
  const seasons = useQueries({
    queries: memberships.map((m) => ({
      ...enrollSeasonQuery(m.MembershipId),
      enabled: loggedIn,
    })),
  });
  const open = memberships.flatMap((m, i) => {
    const answer = seasons[i]?.data;
    return answer && answer.members.some((x) => x.isAvailable && !x.enrolled)
      ? [{ m, season: answer.enrollMembership }]
      : [];
  });
  if (open.length === 0) return null;
  return (
    <ul className="membership-enrol">
      {open.map(({ m, season }) => (
        <li key={m.MembershipId}>
          {t('enroll.membershipsLine', {
            name: localizedName(lang, m.Name, m.NameEn),
            season: localizedName(lang, season.Name, season.NameEn),
          })}{' '}
          <LangLink to={`/enroll/${m.MembershipId}`}>{t('enroll.offer')}</LangLink>
        </li>
      ))}
    </ul>
  );
}
