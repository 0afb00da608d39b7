import { useTranslation } from 'react-i18next';
import { featurePosterUrl } from '../../../lib/api/client';
import type { Presentation } from '../../../lib/api/types';

/**
 * The feature's poster, its title in the page's language; decorative (alt=""), since the name
 * is always written beside it. The first posters of a page are its largest paint: `eager` loads
 * them at once and first (the rest wait until they scroll near).
 */
export function Poster({
  presentation,
  className,
  eager = false,
}: {
  presentation: Pick<Presentation, 'featureId' | 'featureImageUrl'>;
  className: string;
  eager?: boolean;
}) {
  const { i18n } = useTranslation();
  return (
    <img
      className={className}
      src={featurePosterUrl(presentation, i18n.language)}
      alt=""
      width={200}
      height={300}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : 'auto'}
      decoding={eager ? 'sync' : 'async'}
    />
  );
}
