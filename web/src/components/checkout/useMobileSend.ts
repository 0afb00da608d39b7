import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/apiErrors';
import { parseIsraeliMobile } from './customerInfo';

/** What sends to a mobile number: a mutation of the caller's feature (the tickets by SMS). */
export type MobileSender = {
  mutate: (mobileNumber: string) => void;
  reset: () => void;
  isError: boolean;
  error: unknown;
};

/** A form that sends to an Israeli mobile number: the number as typed, whether it was not one,
 * the error to show (that, or the call's), and the submit that checks the number before sending
 * it normalised. */
export function useMobileSend(send: MobileSender) {
  const { t } = useTranslation();
  const [mobile, setMobile] = useState('');
  const [invalid, setInvalid] = useState(false);
  const error = invalid
    ? t('errors.invalid_mobileNumber')
    : send.isError
      ? errorMessage(t, send.error)
      : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = parseIsraeliMobile(mobile);
    setInvalid(!number);
    if (!number) {
      send.reset();
      return;
    }
    send.mutate(number);
  }

  return { mobile, setMobile, invalid, error, submit };
}
