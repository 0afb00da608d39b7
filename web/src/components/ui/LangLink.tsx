import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { Link } from 'react-router';
import { useLangHref } from '../../lib/lang';

type LangLinkProps = Omit<ComponentPropsWithoutRef<typeof Link>, 'to'> & { to: string };

/** A router link that keeps the page's ?lang. */
export const LangLink = forwardRef<HTMLAnchorElement, LangLinkProps>(function LangLink(
  { to, ...rest },
  ref,
) {
  return <Link ref={ref} to={useLangHref(to)} {...rest} />;
});
