import { useTranslation } from 'react-i18next';
import { useAreaLogout, type CustomerAreaData } from '../api/customerArea';
import { ReservationsSection } from './Reservations';
import { MembershipsSection, VodSection, SavedCardsSection, DeleteAccountSection } from './Account';
import { ProfileSection } from './Profile';
import { HoldsSection } from './Holds';

const SECTIONS = ['tickets', 'past', 'memberships', 'vod', 'profile', 'cards', 'account'] as const;

/** The area of a logged-in customer, one section after another, with a table of contents. */
export function CustomerArea({
  data,
  onDeleted,
}: {
  data: CustomerAreaData;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const c = data.customer;
  const logout = useAreaLogout();

  return (
    <div className="area">
      <header className="area__head">
        <div>
          <h1 className="page-title area__title">{t('screens.customerArea')}</h1>
          <p className="area__hello">{t('customerArea.hello', { name: c.FirstName })}</p>
        </div>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
        >
          {t('customerArea.logout')}
        </button>
      </header>
      <nav className="area__nav" aria-label={t('customerArea.navLabel')}>
        <ul>
          {SECTIONS.map((s) => (
            <li key={s}>
              <a href={`#area-${s}`}>{t(`customerArea.nav.${s}`)}</a>
            </li>
          ))}
        </ul>
      </nav>
      <HoldsSection />
      <ReservationsSection
        id="area-tickets"
        title={t('customerArea.tickets.title')}
        empty={t('customerArea.tickets.empty')}
        reservations={c.Tickets}
        upcoming
        addByNumber
      />
      <ReservationsSection
        id="area-past"
        title={t('customerArea.past.title')}
        empty={t('customerArea.past.empty')}
        reservations={c.PastReservations}
        upcoming={false}
      />
      <MembershipsSection members={c.Members} vouchers={c.SystemVouchers} />
      <VodSection items={c.VODTickets} />
      <ProfileSection customer={c} />
      <SavedCardsSection cards={c.MagCards} />
      <DeleteAccountSection onDeleted={onDeleted} />
    </div>
  );
}
