/**
 * The payment a whole-window redirect came back with, taken out of the address so that a reload
 * does not open it again.
 */
export function takeReturnedPayment(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const params = new URLSearchParams(window.location.search);
  const id = params.get('paymentId');
  if (!id) return undefined;
  for (const name of ['paymentId', 'status', 'failureCode']) params.delete(name);
  const rest = params.toString();
  window.history.replaceState(
    window.history.state,
    '',
    `${window.location.pathname}${rest ? `?${rest}` : ''}`,
  );
  return id;
}
