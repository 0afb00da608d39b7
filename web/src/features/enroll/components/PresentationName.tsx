import { DateTime } from '../../../components/ui/DateTime';
import type { EnrollPresentation } from '../../../lib/api/enroll';
import { localizedName } from '../../../lib/localized';

/** A presentation's film and time, as every step of the enrolment names it. */
export function PresentationName({ p, lang }: { p: EnrollPresentation; lang: string }) {
  return (
    <>
      <strong>{localizedName(lang, p.featureName, p.featureNameEn)}</strong>{' '}
      <DateTime iso={p.dateTime} lang={lang} />
    </>
  );
}
