import { featurePosterUrl } from '../../../lib/api/client';
import type { Presentation } from '../../../lib/api/types';

/** The feature's poster; decorative, since the name is always written beside it. */
export function Poster({
  presentation,
  className,
}: {
  presentation: Pick<Presentation, 'featureId' | 'featureImageUrl'>;
  className: string;
}) {
  return (
    <img
      className={className}
      src={presentation.featureImageUrl || featurePosterUrl(presentation.featureId)}
      alt=""
      width={200}
      height={300}
      loading="lazy"
      decoding="async"
    />
  );
}
