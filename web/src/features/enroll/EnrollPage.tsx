import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import '../../components/checkout/OrderFlow.css';
import './EnrollPage.css';
import { AuthStep } from '../../components/checkout/AuthStep';
import { PaymentReturnNotice } from '../../components/checkout/PaymentReturn';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { meQuery } from '../../lib/api/customer';
import {
  commitEnrollment,
  enrollKeys,
  enrollMemberQuery,
  enrollSeasonQuery,
  type EnrollMember,
  type EnrollResponse,
} from '../../lib/api/enroll';
import { reservationPath } from '../../lib/api/reservations';
import type { SiteConfig } from '../../lib/api/types';
import { captchaTokenFor } from '../../lib/captcha';
import { useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/documentTitle';
import { formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { usePaymentReturn } from '../../lib/paymentReturn';
import { EnrollFlow } from './components/EnrollFlow';
import { enrollErrorWords } from './refusal';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

/**
 * Enrolment in a membership season, /enroll/{membershipId} (spec section 2 "Enroll membership";
 * issue 15, decisions 0040 and 0042): the login (the auth step), the member when the customer has
 * several, then the steps of EnrollFlow; the payment leaves for the gateway's page and comes back
 * here (`?first=` names the order's first screening, which the commit needs) to the reservation's
 * own page, as a ticket order's confirmation.
 */
export default function EnrollPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('enroll.title'));
  const membershipId = Number(useParams().membershipId);
  const [params] = useSearchParams();
  const site = useConfig().raw as SiteConfig | null;
  const path = `/enroll/${membershipId}`;
  const first = Number(params.get('first'));
  const back = usePaymentReturn({
    path,
    queryKey: enrollKeys.commit,
    commit: async () => commitEnrollment(first, await captchaTokenFor(site, 'commit')),
    orderPath: reservationPath,
  });
  if (!Number.isInteger(membershipId) || membershipId <= 0) {
    return <NoSeason />;
  }
  if (back.kind !== 'none') return <PaymentReturnNotice state={back} path={path} />;
  return <Enrolment membershipId={membershipId} path={path} />;
}

function NoSeason() {
  const { t } = useTranslation();
  const memberships = useConfig().routes.memberships;
  return (
    <Notice title={t('enroll.title')} tone="neutral">
      <p>{t('enroll.noSeason')}</p>
      <p>
        <LangLink className="button button--ghost" to={memberships}>
          {t('enroll.toMemberships')}
        </LangLink>
      </p>
    </Notice>
  );
}

function Enrolment({ membershipId, path }: { membershipId: number; path: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const me = useQuery(meQuery);
  const loggedIn = me.data != null && me.data.customerInfo != null;
  const season = useQuery({ ...enrollSeasonQuery(membershipId), enabled: loggedIn });

  if (me.isPending || (loggedIn && season.isPending)) return <Loading />;
  if (!loggedIn) {
    // Back to this very address after the login (its ?member= and ?lang= too).
    const query = params.toString();
    const returnTo = query ? `${path}?${query}` : path;
    return (
      <div className="gift-page">
        <h1 className="page-title">{t('enroll.title')}</h1>
        <AuthStep
          returnTo={returnTo}
          why={t('enroll.authWhy')}
          summary={<p>{t('enroll.authSummary')}</p>}
          onBack={() => window.history.back()}
        />
      </div>
    );
  }
  if (season.isError) {
    return <ErrorNotice title={t('enroll.title')} error={season.error} />;
  }
  if (!season.data) return <NoSeason />;

  const data = season.data;
  const name = localizedName(lang, data.enrollMembership.Name, data.enrollMembership.NameEn);
  const selectable = data.members.filter((m) => m.isAvailable && !m.enrolled);
  const asked = params.get('member');
  // One member to enrol: no question to ask.
  const member =
    asked ??
    (data.members.length === 1 && selectable.length === 1 ? selectable[0].memberNumber : null);
  const choose = (memberNumber: string | null) => {
    const next = new URLSearchParams(params);
    if (memberNumber) next.set('member', memberNumber);
    else next.delete('member');
    setParams(next);
  };

  return (
    <div className="gift-page enroll-page">
      <h1 className="page-title">{name}</h1>
      {member === null ? (
        <MemberChoice data={data} onChoose={choose} />
      ) : (
        <CheckedMember
          data={data}
          memberNumber={member}
          onBack={asked !== null && data.members.length > 1 ? () => choose(null) : null}
        />
      )}
    </div>
  );
}

/** The customer's members of the membership: each enrols, or says why it cannot. */
function MemberChoice({
  data,
  onChoose,
}: {
  data: EnrollResponse;
  onChoose: (memberNumber: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const memberships = useConfig().routes.memberships;
  const season = data.enrollMembership;
  return (
    <section className="enroll-step" aria-labelledby="enroll-members">
      <h2 id="enroll-members" className="gift-checkout__heading">
        {t('enroll.members.title')}
      </h2>
      <p className="gift-page__lead">
        {localizedName(lang, season.Description, season.DescriptionEn)}
      </p>
      {data.members.length === 0 ? (
        <p>
          {t('enroll.members.none')}{' '}
          <LangLink to={memberships}>{t('enroll.toMemberships')}</LangLink>
        </p>
      ) : (
        <ul className="enroll-members">
          {data.members.map((m) => (
            <MemberLine key={m.memberNumber} member={m} onChoose={onChoose} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MemberLine({
  member,
  onChoose,
}: {
  member: EnrollMember;
  onChoose: (memberNumber: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const number = <bdi dir="ltr">{member.memberNumber}</bdi>;
  return (
    <li className="enroll-members__item">
      <span>
        <strong>{localizedName(i18n.language, member.name, member.nameEn)}</strong> ·{' '}
        {t('enroll.members.number')} {number}
        {member.balance > 0 && (
          <>
            {' '}
            · {t('enroll.members.balance', { amount: formatMoney(member.balance, i18n.language) })}
          </>
        )}
      </span>
      {member.enrolled ? (
        <span className="area__badge enroll-members__badge">{t('enroll.members.enrolled')}</span>
      ) : !member.isAvailable ? (
        <span className="area__badge enroll-members__badge">{t('enroll.members.unavailable')}</span>
      ) : (
        <button
          type="button"
          className="button button--primary"
          onClick={() => onChoose(member.memberNumber)}
        >
          {t('enroll.members.enrol', { number: member.memberNumber })}
        </button>
      )}
    </li>
  );
}

/** The member checked by the server before the steps (ALREADY_ENROLLED, CUSTOMER_NO_MOBILE …). */
function CheckedMember({
  data,
  memberNumber,
  onBack,
}: {
  data: EnrollResponse;
  memberNumber: string;
  onBack: (() => void) | null;
}) {
  const { t } = useTranslation();
  const season = data.enrollMembership;
  const check = useQuery(enrollMemberQuery(season.MembershipId, memberNumber));
  if (check.isPending) return <Loading />;
  if (check.isError) {
    return (
      <Notice title={t('enroll.title')} tone="error" headingLevel={2}>
        <p>{enrollErrorWords(t, check.error)}</p>
        <p>
          {onBack ? (
            <button type="button" className="button button--ghost" onClick={onBack}>
              {t('enroll.previous')}
            </button>
          ) : (
            <LangLink className="button button--ghost" to="/customer-area">
              {t('enroll.toArea')}
            </LangLink>
          )}
        </p>
      </Notice>
    );
  }
  return (
    <EnrollFlow season={check.data.enrollMembership} memberNumber={memberNumber} onBack={onBack} />
  );
}
