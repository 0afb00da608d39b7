import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { meQuery, useLogout } from '../../lib/api/customer';
import { maskedMobile } from './maskedMobile';

/**
 * Who is logged in on this session, in the header: the customer's first name (or the masked
 * number for a proven number with no account) and a way out. The login lives in an HttpOnly
 * cookie, so the page asks the server (GET /customer/me); nothing shows for nobody.
 */
export function HeaderAccount() {
  const { t } = useTranslation();
  const me = useQuery(meQuery);
  const logout = useLogout();
  const login = me.data;
  // A login always names its proven number; anything else is not one.
  if (!login?.mobileNumber) return null;
  const firstName = login.customerInfo?.FirstName?.trim();
  return (
    <section className="site-account" aria-label={t('account.label')}>
      <p className="site-account__who">
        {firstName ? (
          t('account.hello', { name: firstName })
        ) : (
          <>
            <span className="site-account__label">{t('account.number')} </span>
            <bdi dir="ltr">{maskedMobile(login.mobileNumber)}</bdi>
          </>
        )}
      </p>
      <button
        type="button"
        className="site-account__logout"
        disabled={logout.isPending}
        onClick={() => logout.mutate()}
      >
        {t('account.logout')}
      </button>
    </section>
  );
}
