import { DateTime } from './DateTime';
import type { EnrollPresentation } from '../../lib/api/enroll';
import { localizedName } from '../../lib/localized';

/** A season's screening by its film and time, as the enrolment and the seated memberships name it. */
export function PresentationName({ p, lang }: { p: EnrollPresentation; lang: string }) {
  return (
    <>
      <strong>{localizedName(lang, p.featureName, p.featureNameEn)}</strong>{' '}
      <DateTime iso={p.dateTime} lang={lang} />
    </>
  );
}
