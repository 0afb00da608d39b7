// Which component each route id of routes.json shows. Pages are split per feature and loaded
// when first visited.
import type { ComponentType } from 'react';
import { lazyPage } from './lazyPage';
import ErrorRoutePage from './errors/ErrorRoutePage';

const LivePage = lazyPage(() => import('../features/staff/StaffPage'));
const MiniSitePage = lazyPage(() => import('../features/mini-site/MiniSitePage'));

/**
 * The pages the server writes a first screen of (decision 0071), by route id: main.tsx loads the
 * one a visitor lands on before the app's first render, which then replaces that screen at once.
 */
export const LANDING_PAGES = {
  index: lazyPage(() => import('../features/whats-on/WhatsOnPage')),
  order: lazyPage(() => import('../features/order/components/OrderPage')),
} as const;

export const ROUTE_PAGES: Readonly<Record<string, ComponentType>> = {
  index: LANDING_PAGES.index,
  orderStart: lazyPage(() => import('../features/order/components/OrderStartPage')),
  order: LANDING_PAGES.order,
  presLive: LivePage,
  presLiveAny: LivePage,
  edocument: lazyPage(() => import('../features/edocument/EDocumentPage')),
  reservation: lazyPage(() => import('./ReservationRoute')),
  reservationSeats: lazyPage(() => import('../features/seat-change/SeatChangePage')),
  hold: lazyPage(() => import('../features/holds/HoldPage')),
  miniSiteIndex: MiniSitePage,
  miniSite: MiniSitePage,
  vod: lazyPage(() => import('../features/vod/VodPage')),
  systemVouchers: lazyPage(() => import('../features/gifts/SystemVouchersPage')),
  memberships: lazyPage(() => import('../features/memberships/MembershipsPage')),
  enroll: lazyPage(() => import('../features/enroll/EnrollPage')),
  customerArea: lazyPage(() => import('../features/customer-area/CustomerAreaPage')),
  customerLogin: lazyPage(() => import('../features/customer-login/LoginPage')),
  customerTokenLogin: lazyPage(() => import('../features/customer-login/TokenPages')),
  customerVerifyEmail: lazyPage(() =>
    import('../features/customer-login/TokenPages').then((m) => ({ default: m.VerifyEmailPage })),
  ),
  customerResetPassword: lazyPage(() =>
    import('../features/customer-login/TokenPages').then((m) => ({ default: m.ResetPasswordPage })),
  ),
  donations: lazyPage(() => import('../features/gifts/DonationsPage')),
  terms: lazyPage(() =>
    import('../features/legal/LegalPage').then((m) => ({ default: m.TermsPage })),
  ),
  privacy: lazyPage(() =>
    import('../features/legal/LegalPage').then((m) => ({ default: m.PrivacyPage })),
  ),
  // The contact page is the marketing pages' contact form (decision 0051).
  contact: lazyPage(() => import('../features/marketing/FormPages')),
  birthdays: lazyPage(() =>
    import('../features/marketing/FormPages').then((m) => ({ default: m.BirthdaysPage })),
  ),
  jobs: lazyPage(() =>
    import('../features/marketing/FormPages').then((m) => ({ default: m.JobsPage })),
  ),
  complexes: lazyPage(() => import('../features/marketing/ComplexesPage')),
  movie: lazyPage(() => import('../features/marketing/MoviePage')),
  search: lazyPage(() => import('../features/marketing/SearchPage')),
  quickOrder: lazyPage(() => import('../features/marketing/QuickOrderPage')),
  accessibility: lazyPage(() =>
    import('../features/legal/LegalPage').then((m) => ({ default: m.AccessibilityPage })),
  ),
  error: ErrorRoutePage,
};
