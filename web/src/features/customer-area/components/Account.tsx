import { useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { VodFacts } from '../../../components/vod/VodFacts';
import { vodStatus } from '../../../components/vod/vodStatus';
import { LangLink } from '../../../components/ui/LangLink';
import { useConfig } from '../../../lib/config';
import { errorMessage } from '../../../lib/apiErrors';
import { formatLongDate, formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import type { OwnedVoucher } from '../../../lib/api/gifts';
import { enrollSeasonQuery, type EnrollResponse } from '../../../lib/api/enroll';
import { VouchersList } from './Vouchers';
import {
  useDeleteAccount,
  useDeleteSavedCard,
  type MemberCard,
  type SavedCard,
  type VodItem,
} from '../api/customerArea';
import { CardHead } from './CardHead';

function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section className="area__section" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="area__heading">
        {title}
      </h2>
      {children}
    </section>
  );
}

function memberStatus(m: MemberCard): 'active' | 'expired' | 'notStarted' {
  if (m.isExpired) return 'expired';
  if (m.isNotStarted) return 'notStarted';
  return 'active';
}

export function MembershipsSection({
  members,
  vouchers,
}: {
  members: MemberCard[];
  vouchers: OwnedVoucher[];
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const membershipsPath = useConfig().routes.memberships;
  // The season open for enrolment of each membership the customer is a member of, if any.
  const membershipIds = [...new Set(members.map((m) => m.membershipId))];
  const seasons = useQueries({
    queries: membershipIds.map((id) => enrollSeasonQuery(id)),
    combine: (results) =>
      new Map(membershipIds.map((id, i) => [id, results[i]?.data ?? null] as const)),
  });
  return (
    <Section id="area-memberships" title={t('customerArea.memberships.title')}>
      {members.length === 0 ? (
        <p className="area__empty">
          {t('customerArea.memberships.empty')}{' '}
          <LangLink to={membershipsPath}>{t('memberships.area.buy')}</LangLink>
        </p>
      ) : (
        <ul className="area__cards">
          {members.map((m) => {
            const status = memberStatus(m);
            return (
              <li key={m.memberNumber} className="area__card">
                <CardHead
                  title={localizedName(lang, m.name, m.nameEn)}
                  badge={status}
                  badgeText={t(`customerArea.memberships.status.${status}`)}
                />
                <dl className="area__facts">
                  <div>
                    <dt>{t('customerArea.memberships.number')}</dt>
                    <dd>
                      <bdi dir="ltr">{m.memberNumber}</bdi>
                    </dd>
                  </div>
                  <div>
                    <dt>{t('customerArea.memberships.valid')}</dt>
                    <dd>
                      {t('customerArea.memberships.range', {
                        from: formatLongDate(m.startDate, lang),
                        to: formatLongDate(m.endDate, lang),
                      })}
                    </dd>
                  </div>
                  {m.balance > 0 && (
                    <div>
                      <dt>{t('customerArea.memberships.balance')}</dt>
                      <dd>{formatMoney(m.balance, lang, m.currency)}</dd>
                    </div>
                  )}
                  {m.pointsBalance > 0 && (
                    <div>
                      <dt>{t('customerArea.memberships.points')}</dt>
                      <dd>{m.pointsBalance}</dd>
                    </div>
                  )}
                </dl>
                <EnrolOffer
                  season={seasons.get(m.membershipId) ?? null}
                  memberNumber={m.memberNumber}
                />
                {m.topUp && (
                  <p className="area__actions">
                    <LangLink
                      className="button button--ghost"
                      to={`${membershipsPath}?topUp=${encodeURIComponent(m.memberNumber)}`}
                      aria-label={t('memberships.area.topUpLabel', {
                        name: localizedName(lang, m.name, m.nameEn),
                        number: m.memberNumber,
                      })}
                    >
                      {t('memberships.area.topUp')}
                    </LangLink>
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <h3 className="area__subheading">{t('customerArea.vouchers.title')}</h3>
      <VouchersList vouchers={vouchers} />
    </Section>
  );
}

/** "Enrol in the season" on a member card whose membership has a season open for it. */
function EnrolOffer({
  season,
  memberNumber,
}: {
  season: EnrollResponse | null;
  memberNumber: string;
}) {
  const { t, i18n } = useTranslation();
  const member = season?.members.find((x) => x.memberNumber === memberNumber);
  if (!season || !member || !member.isAvailable) return null;
  const s = season.enrollMembership;
  const name = localizedName(i18n.language, s.Name, s.NameEn);
  if (member.enrolled) {
    return <p className="area__actions">{t('enroll.enrolledIn', { season: name })}</p>;
  }
  return (
    <p className="area__actions">
      <LangLink
        className="button button--primary"
        to={`/enroll/${s.MembershipId}?member=${encodeURIComponent(memberNumber)}`}
        aria-label={t('enroll.offerLabel', { number: memberNumber, season: name })}
      >
        {t('enroll.offer')}
      </LangLink>
    </p>
  );
}

export function VodSection({ items }: { items: VodItem[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { routes } = useConfig();
  return (
    <Section id="area-vod" title={t('customerArea.vod.title')}>
      {items.length === 0 ? (
        <p className="area__empty">{t('customerArea.vod.empty')}</p>
      ) : (
        <ul className="area__cards">
          {items.map((v) => (
            <li key={v.ReservationIdentifier} className="area__card">
              <CardHead
                title={localizedName(
                  lang,
                  v.presentation.featureName,
                  v.presentation.featureNameEn,
                )}
                badge={`vod-${vodStatus(v.status)}`}
                badgeText={t(`customerArea.vod.status.${vodStatus(v.status)}`)}
              />
              <VodFacts item={v} className="area__facts" />
              {vodStatus(v.status) === 'available' && v.playbackBalance > 0 && (
                <p>
                  <LangLink
                    className="button button--primary"
                    to={`${routes.vod}?reservation=${encodeURIComponent(v.ReservationIdentifier)}`}
                  >
                    {t('whatsOn.watchNow')}
                  </LangLink>
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function SavedCardsSection({ cards }: { cards: SavedCard[] }) {
  const { t } = useTranslation();
  const remove = useDeleteSavedCard();
  return (
    <Section id="area-cards" title={t('customerArea.cards.title')}>
      {cards.length === 0 ? (
        <p className="area__empty">{t('customerArea.cards.empty')}</p>
      ) : (
        <ul className="area__list">
          {cards.map((c) => {
            const label = t('customerArea.cards.card', {
              brand: c.brand.toUpperCase(),
              last4: c.last4,
              month: String(c.expiryMonth).padStart(2, '0'),
              year: String(c.expiryYear % 100).padStart(2, '0'),
            });
            return (
              <li key={c.token} className="area__list-item">
                <span>
                  <bdi dir="ltr">{label}</bdi>
                  {c.isExpired && ` · ${t('customerArea.cards.expired')}`}
                </span>
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(c.token)}
                >
                  {t('customerArea.cards.delete')}
                  <span className="visually-hidden">{` (${label})`}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <p role="status" className="area__status">
        {remove.isError ? errorMessage(t, remove.error) : ''}
      </p>
    </Section>
  );
}

export function DeleteAccountSection({ onDeleted }: { onDeleted: () => void }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAccount();
  return (
    <Section id="area-account" title={t('customerArea.account.title')}>
      <p>{t('customerArea.account.text')}</p>
      {!confirming ? (
        <button
          type="button"
          className="button button--ghost area__danger"
          onClick={() => setConfirming(true)}
        >
          {t('customerArea.account.delete')}
        </button>
      ) : (
        <div
          className="area__confirm"
          role="alertdialog"
          aria-labelledby="area-confirm-title"
          aria-describedby="area-confirm-text"
        >
          <h3 id="area-confirm-title" className="area__subheading">
            {t('customerArea.account.confirmTitle')}
          </h3>
          <p id="area-confirm-text">{t('customerArea.account.confirmText')}</p>
          <div className="area__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={remove.isPending}
              onClick={() => remove.mutate(undefined, { onSuccess: onDeleted })}
            >
              {t('customerArea.account.confirm')}
            </button>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => setConfirming(false)}
            >
              {t('customerArea.account.cancel')}
            </button>
          </div>
          <p role="status" className="area__status">
            {remove.isError ? errorMessage(t, remove.error) : ''}
          </p>
        </div>
      )}
    </Section>
  );
}
