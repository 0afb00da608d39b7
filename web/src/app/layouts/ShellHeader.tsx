import { Loading } from '../../components/ui/Loading';

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
            <svg
              className="site-header__logo"
              viewBox="0 0 32 32"
              aria-hidden="true"
              focusable="false"
            >
              <rect width="32" height="32" rx="7" fill="currentColor" opacity="0.12" />
              <path d="M7 10h18v4a2 2 0 0 0 0 4v4H7v-4a2 2 0 0 0 0-4z" fill="var(--color-accent)" />
            </svg>
          </span>
        </div>
      </header>
      <Loading block />
    </>
  );
}
