/** The service charge's name as the business wrote it is Hebrew; other languages get the
 *  translated label (`fallback`), as does a charge with no name. */
export function serviceChargeLabel(
  name: string | null | undefined,
  lang: string,
  fallback: string,
): string {
  return lang === 'he' && name ? name : fallback;
}
