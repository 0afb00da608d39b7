/** The order's steps, in order (spec 2); products only where the complex sells any. */
export const STEPS = ['seats', 'tickets', 'products', 'payment', 'confirmation'] as const;
export type Step = (typeof STEPS)[number];
