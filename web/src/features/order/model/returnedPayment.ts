/**
 * The payment a whole-window redirect came back with, taken out of the address on this page
 * load, until it is settled (paid, or given up).
 */
let pending: { path: string; id: string } | null = null;

/**
 * The returned payment: taken out of the address, so that a reload does not open it again. A
 * first render that React throws away (a part of the page still loading) asks again: it gets the
 * same payment, not nothing.
 */
export function takeReturnedPayment(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const params = new URLSearchParams(window.location.search);
  const id = params.get('paymentId');
  if (!id) return pending?.path === window.location.pathname ? pending.id : undefined;
  for (const name of ['paymentId', 'status', 'failureCode']) params.delete(name);
  const rest = params.toString();
  window.history.replaceState(
    window.history.state,
    '',
    `${window.location.pathname}${rest ? `?${rest}` : ''}`,
  );
  pending = { path: window.location.pathname, id };
  return id;
}

/** The returned payment is paid or given up: the order page no longer opens it. */
export function settleReturnedPayment(): void {
  pending = null;
}
