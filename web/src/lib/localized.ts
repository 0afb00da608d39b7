// The API carries Hebrew names and English ones (…En); other languages read the English.
export function localizedName(
  lang: string,
  hebrew: string,
  english: string | null | undefined,
): string {
  if (lang === 'he') return hebrew;
  return english && english.trim() !== '' ? english : hebrew;
}

/**
 * Where a presentation is, as buyers know it: the cinema (the catalogue's location). A location
 * that is no cinema (video on demand sits at the chain's office) is named by its venue instead
 * ("Kupa at Home – Rent"), never by its internal name ("Head office").
 */
export function placeName(
  lang: string,
  p: {
    isVod: boolean;
    locationName: string;
    locationNameEn: string;
    venueName: string;
    venueNameEn: string;
  },
): string {
  return p.isVod
    ? localizedName(lang, p.venueName, p.venueNameEn)
    : localizedName(lang, p.locationName, p.locationNameEn);
}
