/** "0524318876" as "052-•••-8876": enough for the buyer to know the number, not for a passer-by. */
export function maskedMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, '');
  if (digits.length < 7) return mobile;
  return `${digits.slice(0, 3)}-•••-${digits.slice(-4)}`;
}
