import { useTranslation } from 'react-i18next';
import { featurePosterUrl } from '../../../lib/api/client';
import type { Presentation } from '../../../lib/api/types';

/**
 * The card's width as `<img sizes>`: an uploaded poster's 300 or 600 px file is picked by it
 * (the server preloads the first cards' posters with the same, crates/api/src/web/landing.rs).
 */
export const POSTER_SIZES = '200px';

/**
 * The feature's poster, its title in the page's language; decorative (alt=""), since the name
 * is always written beside it. The first posters of a page are its largest paint: `eager` loads
 * them at once and first (the rest wait until they scroll near). An uploaded poster comes in
 * two widths (`featureImageSrcset`), the generated one is a single SVG.
 */
export function Poster({
  presentation,
  className,
  eager = false,
}: {
  presentation: Pick<Presentation, 'featureId' | 'featureImageUrl'> & {
    featureImageSrcset?: string | null;
  };
  className: string;
  eager?: boolean;
}) {
  const { i18n } = useTranslation();
  return (
    <img
      className={className}
      src={featurePosterUrl(presentation, i18n.language)}
      srcSet={presentation.featureImageSrcset ?? undefined}
      sizes={presentation.featureImageSrcset ? POSTER_SIZES : undefined}
      alt=""
      width={200}
      height={300}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : 'auto'}
      decoding={eager ? 'sync' : 'async'}
    />
  );
}
