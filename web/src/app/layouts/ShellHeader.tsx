import { Loading } from '../../components/ui/Loading';
import { SiteLogo } from './SiteLogo';

/**
 * The site's bar before the configuration has come: the same markup index.html paints before any
 * script runs (keep the two alike), so the first paint is the bar and it stays put while the app
 * starts, then the full header (links, account, language) takes its place.
 */
export function ShellHeader() {
  return (
    <>
      <header className="site-header" aria-hidden="true">
        <div className="site-header__inner">
          <span className="site-header__brand">
            <SiteLogo />
          </span>
        </div>
      </header>
      <Loading block />
    </>
  );
}
