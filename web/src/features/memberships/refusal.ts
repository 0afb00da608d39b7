// The server's refusals of a membership cart that are about the choice, not the buyer's details,
// in words that say which rule it broke. A formValidation about the details (`params.fields`)
// is left to the details form, which marks the field.
import type { TFunction } from 'i18next';
import { ApiError } from '../../lib/api/client';

/** The words for a refusal of the choice, or null for any other failure. */
export function choiceRefusal(t: TFunction, error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'formValidation') return null;
  const params = error.params ?? {};
  if (params.reason === 'currencies') return t('memberships.problem.currencies');
  if (params.reason === 'topUp') return t('memberships.problem.notTopUp');
  if (typeof params.max === 'number') {
    return t('memberships.problem.tooMany', { max: params.max });
  }
  return null;
}

/**
 * The error the details form shows for a failed pricing: a refusal of the choice becomes an
 * error whose message is those words (the form shows an unknown code's message as it is).
 */
export function asShownError(t: TFunction, error: unknown): unknown {
  const words = choiceRefusal(t, error);
  return words !== null && error instanceof ApiError
    ? new ApiError(error.status, 'membershipChoice', words)
    : error;
}
