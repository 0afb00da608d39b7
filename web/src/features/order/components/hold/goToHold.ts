import { withLang } from '../../../../lib/lang';

/**
 * On to the hold's own page once the seats are reserved: a plain load (the order's state is over),
 * in the page's language.
 */
export function goToHold(reservationIdentifier: string): void {
  const lang = new URLSearchParams(window.location.search).get('lang');
  window.location.assign(withLang(`/hold/${encodeURIComponent(reservationIdentifier)}`, lang));
}
