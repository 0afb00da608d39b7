import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import '../../components/checkout/OrderFlow.css';
import './MembershipsPage.css';
import { AuthStep } from '../../components/checkout/AuthStep';
import { FlowSteps } from '../../components/checkout/FlowSteps';
import { PaymentReturnNotice } from '../../components/checkout/PaymentReturn';
import { Loading } from '../../components/ui/Loading';
import { captchaTokenFor } from '../../lib/captcha';
import { useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/documentTitle';
import { usePaymentReturn } from '../../lib/paymentReturn';
import { formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { meQuery } from '../../lib/api/customer';
import {
  commitMemberships,
  membershipCatalogueQuery,
  membershipKeys,
} from '../../lib/api/memberships';
import type { SiteConfig } from '../../lib/api/types';
import {
  TOP_UP_MAX,
  canAddMore,
  chosenMemberships,
  decodeChoice,
  encodeChoice,
  encodeReferences,
  firstUnanswered,
  offered,
  type MembershipChoice,
  type ReferenceAnswers,
} from './choice';
import { EnrolLines } from './EnrolLines';
import { MembershipCard } from './MembershipCard';
import { MemberDetailsStep } from './MemberDetailsStep';
import { MembershipCheckout } from './MembershipCheckout';
import { MembershipConfirmation } from './MembershipConfirmation';
import { SeatsStep } from './SeatsStep';
import { seatsStepOf } from './seats';
import { useReleaseSeat } from './releaseSeat';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

/** A member number in the address (`?topUp=`): what the server's member numbers look like. */
const MEMBER_NUMBER = /^[0-9A-Za-z-]{1,32}$/;

type Step = 'choose' | 'members' | 'auth' | 'seats' | 'details';

/**
 * Memberships (spec section 2: choose memberships, choose seats, customer info, confirmation;
 * decision 0038), built as the vouchers flow: choose, the member details each chosen price asks
 * for (stepped through with next and previous when there are several), the auth step, the
 * details with the ID number, the gateway's payment, and the confirmation with the new member
 * numbers. A seated membership (decision 0043) bought for a new member has a "choose seats" step
 * after the auth step (the seat calls are the buyer's, logged in), one per seated membership.
 *
 * The choice lives in the address (`?choice=2:201*1&refs=…&step=members&at=0`, `&step=seats&at=0`),
 * so a reload and
 * the auth step's trip through the login page keep it. `?topUp=<memberNumber>` offers only the
 * memberships that can be topped up, for that member card.
 */
export default function MembershipsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.memberships'));
  const config = useConfig();
  const path = config.routes.memberships;
  const site = config.raw as SiteConfig | null;
  const order = useSearchParams()[0].get('order');
  const back = usePaymentReturn({
    path,
    queryKey: membershipKeys.commit,
    commit: async () => commitMemberships(await captchaTokenFor(site as SiteConfig, 'commit')),
  });
  if (order) return <MembershipConfirmation id={order} />;
  if (back.kind !== 'none') return <PaymentReturnNotice state={back} path={path} />;
  return <ChooseMemberships path={path} />;
}

function ChooseMemberships({ path }: { path: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useQuery(membershipCatalogueQuery);
  const [params, setParams] = useSearchParams();
  const [choice, setChoice] = useState<MembershipChoice>(() =>
    decodeChoice(params.get('choice'), params.get('refs')),
  );
  const topUpParam = params.get('topUp');
  const topUp = topUpParam !== null && MEMBER_NUMBER.test(topUpParam) ? topUpParam : null;
  const step = params.get('step');
  const inCheckout = step === 'checkout';
  const inSeats = step === 'seats';
  const me = useQuery({ ...meQuery, enabled: inCheckout || inSeats });
  // Why the buyer was sent back to a seats step (the cart found no seat held there).
  const [seatsNotice, setSeatsNotice] = useState<string | null>(null);
  const releaseSeat = useReleaseSeat();

  /** The address of this choice at a step: choosing (null), a member's details, or past them. */
  const address = (at: 'members' | 'seats' | 'checkout' | null, index?: number) => {
    const next = new URLSearchParams();
    const langParam = params.get('lang');
    if (langParam) next.set('lang', langParam);
    if (topUp) next.set('topUp', topUp);
    const text = encodeChoice(choice);
    if (text) next.set('choice', text);
    const refs = encodeReferences(choice);
    if (refs) next.set('refs', refs);
    if (at) next.set('step', at);
    if (at === 'members' || at === 'seats') next.set('at', String(index ?? 0));
    return next;
  };

  if (query.isPending) return <Loading />;
  if (query.isError) {
    return <ErrorNotice title={t('gifts.loadError')} error={query.error} />;
  }
  const { memberships: all, maxQuantityForMembership: max } = query.data;
  const memberships = offered(all, topUp);
  const chosen = chosenMemberships(all, choice, max, topUp);
  const money = (agorot: number) => formatMoney(agorot, lang, chosen.currency);
  const title = topUp ? t('memberships.topUpTitle') : t('memberships.title');
  const hasDetails = chosen.needsDetails.length > 0;
  const seated = chosen.ok ? chosen.seated : [];
  const hasSeats = seated.length > 0;
  /** Past the member details: the first seats step, or the checkout. */
  const afterDetails = () => (hasSeats ? address('seats', 0) : address('checkout'));
  const steps = (
    [
      ['choose', topUp ? t('memberships.steps.chooseTopUp') : t('memberships.steps.choose')],
      ...(hasDetails ? [['members', t('memberships.steps.members')]] : []),
      ['auth', t('memberships.steps.auth')],
      ...(hasSeats ? [['seats', t('membershipSeats.step')]] : []),
      ['details', t('memberships.steps.details')],
    ] as [Step, string][]
  ).map(([key, label]) => ({ key, label }));

  // Past the choice: each chosen price's prompts, one membership at a time. A checkout address
  // whose answers are not right (edited by hand) comes back to the first one that is not.
  const unanswered = firstUnanswered(chosen, choice);
  const atMembers =
    chosen.ok && hasDetails && (step === 'members' || ((inCheckout || inSeats) && unanswered >= 0));
  if (atMembers) {
    const requested = Number(params.get('at') ?? '0');
    const index =
      inCheckout || inSeats
        ? unanswered
        : Number.isInteger(requested) && requested >= 0 && requested < chosen.needsDetails.length
          ? requested
          : 0;
    const setAnswers = (key: string, answers: ReferenceAnswers) =>
      setChoice((c) => ({ ...c, references: { ...c.references, [key]: answers } }));
    return (
      <div className="gift-page">
        <h1 className="page-title">{title}</h1>
        <FlowSteps steps={steps} current="members" />
        <MemberDetailsStep
          key={index}
          item={chosen.needsDetails[index]}
          at={index}
          count={chosen.needsDetails.length}
          answers={choice.references[chosen.needsDetails[index].key] ?? {}}
          onAnswers={(a) => setAnswers(chosen.needsDetails[index].key, a)}
          onPrevious={() => setParams(index === 0 ? address(null) : address('members', index - 1))}
          onNext={() =>
            setParams(
              index + 1 < chosen.needsDetails.length
                ? address('members', index + 1)
                : afterDetails(),
            )
          }
        />
      </div>
    );
  }

  if ((inCheckout || inSeats) && chosen.ok) {
    if (me.isPending) return <Loading />;
    const summary = (
      <ul>
        {chosen.summary.map((s) => (
          <li key={s.key}>
            {s.quantity} × {localizedName(lang, s.name, s.nameEn)} ({money(s.price)}
            {s.series &&
              `, ${t(topUp ? 'memberships.addsToBalance' : 'memberships.balanceOf', { amount: money(s.value) })}`}
            ){topUp && ` · ${t('memberships.topUpOf', { number: topUp })}`}
          </li>
        ))}
      </ul>
    );
    const back = () => setParams(address(null));
    // A member is its buyer's, in their customer area: nobody logged in, the auth step first.
    const loggedIn = me.data != null && me.data.customerInfo != null;
    const requested = Number(params.get('at') ?? '0');
    const seatsAt =
      Number.isInteger(requested) && requested >= 0 && requested < seated.length ? requested : 0;
    const seating = inSeats && hasSeats ? seated[seatsAt] : null;
    const current = !loggedIn ? 'auth' : seating ? 'seats' : 'details';
    return (
      <div className="gift-page">
        <h1 className="page-title">{title}</h1>
        <FlowSteps steps={steps} current={current} />
        {seating?.seats && loggedIn ? (
          <SeatsStep
            key={seating.MembershipId}
            membership={{ ...seating, seats: seating.seats }}
            at={seatsAt}
            count={seated.length}
            notice={seatsNotice}
            onPrevious={() => {
              setSeatsNotice(null);
              setParams(
                seatsAt > 0
                  ? address('seats', seatsAt - 1)
                  : hasDetails
                    ? address('members', chosen.needsDetails.length - 1)
                    : address(null),
              );
            }}
            onNext={() => {
              setSeatsNotice(null);
              setParams(
                seatsAt + 1 < seated.length ? address('seats', seatsAt + 1) : address('checkout'),
              );
            }}
          />
        ) : !loggedIn ? (
          <AuthStep
            returnTo={`${path}?${(inSeats && hasSeats ? address('seats', seatsAt) : address('checkout')).toString()}`}
            why={t('memberships.authWhy')}
            summary={summary}
            total={money(chosen.total)}
            onBack={back}
          />
        ) : (
          <MembershipCheckout
            lines={chosen.lines}
            total={chosen.total}
            returnPath={path}
            onBack={back}
            summary={summary}
            onSeatsMissing={(membershipId) => {
              const i = seatsStepOf(seated, membershipId);
              const m = seated[i];
              setSeatsNotice(
                t('membershipSeats.missing', {
                  name: m ? localizedName(lang, m.Name, m.NameEn) : '',
                }),
              );
              setParams(address('seats', i));
            }}
          />
        )}
      </div>
    );
  }

  const setQuantity = (key: string, n: number) => {
    setChoice((c) => ({ ...c, quantities: { ...c.quantities, [key]: Math.max(0, n) } }));
    // A seated membership taken out of the choice gives its held seat back.
    const m = memberships.find((x) => key.startsWith(`${x.MembershipId}:`));
    if (m?.seats && n <= 0 && !topUp) void releaseSeat(m);
  };
  const problemMax = topUp ? TOP_UP_MAX : max;
  const problemKey =
    chosen.problem === 'tooMany'
      ? topUp
        ? 'memberships.problem.tooManyTopUps'
        : 'memberships.problem.tooMany'
      : chosen.problem === 'currencies'
        ? 'memberships.problem.currencies'
        : null;
  return (
    <div className="gift-page">
      <h1 className="page-title">{title}</h1>
      <FlowSteps steps={steps} current="choose" />
      <p className="gift-page__lead">
        {topUp ? t('memberships.topUpLead', { number: topUp }) : t('memberships.lead', { max })}
      </p>
      {!topUp && <EnrolLines memberships={all} />}
      {all.length === 0 && <p>{t('errors.noMemberships')}</p>}
      {all.length > 0 && memberships.length === 0 && <p>{t('memberships.topUpNone')}</p>}
      {memberships.map((m) => (
        <MembershipCard
          key={m.MembershipId}
          m={m}
          lang={lang}
          quantities={choice.quantities}
          full={!canAddMore(chosen, m, max, topUp)}
          topUp={topUp !== null}
          onQuantity={setQuantity}
        />
      ))}
      <div className="gift-page__bar">
        <p>
          {t('gifts.total')} <strong>{money(chosen.total)}</strong>
        </p>
        {problemKey && (
          <p role="status" className="gift-checkout__hint">
            {t(problemKey, { max: problemMax })}
          </p>
        )}
        <button
          type="button"
          className="button button--primary"
          disabled={!chosen.ok}
          onClick={() =>
            chosen.ok && setParams(hasDetails ? address('members', 0) : afterDetails())
          }
        >
          {t('gifts.continue')}
        </button>
      </div>
    </div>
  );
}
