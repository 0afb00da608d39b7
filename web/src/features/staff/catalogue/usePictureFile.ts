// A picture chosen for a film's poster or a product's image: the file (checked for its type and
// size before it is sent), its preview (an object URL, let go when it changes), and the problem
// in words, whether found here or by the server on upload.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { posterProblem, posterRefusal } from './model';

/** Where a picture's words are: a film's poster's, a product's picture's. */
export type PictureTexts = 'staffFilms.poster' | 'staffProducts.upload';

/**
 * `texts`: where the rules' words are (`staffFilms.poster`, `staffProducts.upload`); `field`:
 * the upload's field in the server's refusal (a film's `poster`, a product's `image`).
 */
export function usePictureFile(texts: PictureTexts, field: 'poster' | 'image') {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const pick = (picked: File | undefined) => {
    setError(null);
    if (!picked) {
      setFile(null);
      return;
    }
    const problem = posterProblem(picked);
    if (problem) {
      setFile(null);
      setError(t(`${texts}.${problem}`));
      return;
    }
    setFile(picked);
  };

  /** The upload failed: the server's rule in words, or what went wrong. */
  const refused = (failure: unknown) => {
    const rule =
      failure instanceof ApiError ? posterRefusal(failure.code, failure.params, field) : null;
    setError(rule ? t(`${texts}.${rule}`) : errorMessage(t, failure));
  };

  return { file, preview, error, pick, refused };
}
