/**
 * Which runs of a screen-picture test `make test` takes. The picture tests walk a screen at
 * several languages and widths, checking each for sideways scrolling and axe, and keep a
 * full-page picture for a person to look at. `make screenshots` (KUPA_E2E_PICTURES=all) takes
 * every run; `make test` (and so CI) takes Hebrew at the narrowest width and English at the
 * widest, so both directions and both ends of the width range are still checked, in about half
 * the time (decision 0074).
 */
export function takesPictureRun(
  lang: 'he' | 'en',
  width: number,
  widths: readonly number[],
): boolean {
  if (process.env.KUPA_E2E_PICTURES === 'all') return true;
  return lang === 'he' ? width === Math.min(...widths) : width === Math.max(...widths);
}
