// The API carries Hebrew names and English ones (…En); other languages read the English.
export function localizedName(
  lang: string,
  hebrew: string,
  english: string | null | undefined,
): string {
  if (lang === 'he') return hebrew;
  return english && english.trim() !== '' ? english : hebrew;
}
