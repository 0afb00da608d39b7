// The addresses of the legal pages (routes.json has the same): the footer and the terms checkbox
// of the details form link to them.
export type LegalDoc = 'terms' | 'privacy' | 'contact' | 'accessibility';

export const LEGAL_PATHS: readonly { doc: LegalDoc; path: string }[] = [
  { doc: 'terms', path: '/terms' },
  { doc: 'privacy', path: '/privacy' },
  { doc: 'contact', path: '/contact' },
  { doc: 'accessibility', path: '/accessibility' },
];
