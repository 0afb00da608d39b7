import { useTranslation } from 'react-i18next';
import { featurePosterUrl } from '../../../lib/api/client';
import type { Presentation } from '../../../lib/api/types';

/**
 * The feature's poster, its title in the page's language; decorative (alt=""), since the name
 * is always written beside it.
 */
export function Poster({
  presentation,
  className,
}: {
  presentation: Pick<Presentation, 'featureId' | 'featureImageUrl'>;
  className: string;
}) {
  const { i18n } = useTranslation();
  return (
    <img
      className={className}
      src={featurePosterUrl(presentation, i18n.language)}
      alt=""
      width={200}
      height={300}
      loading="lazy"
      decoding="async"
    />
  );
}
