// The site's mark (a ticket on a rounded square), in the header and in the bar shown before the
// configuration has come (index.html paints the same markup: keep them alike).
export function SiteLogo() {
  return (
    <svg className="site-header__logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="currentColor" opacity="0.12" />
      <path d="M7 10h18v4a2 2 0 0 0 0 4v4H7v-4a2 2 0 0 0 0-4z" fill="var(--color-accent)" />
    </svg>
  );
}
