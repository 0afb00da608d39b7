// The e-document page's one call.
import { apiGet } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

export type EDocument = components['schemas']['EDocument'];

export function fetchEDocument(key: string, signal?: AbortSignal): Promise<EDocument> {
  return apiGet<EDocument>(`/edocument/${encodeURIComponent(key)}`, undefined, signal);
}
