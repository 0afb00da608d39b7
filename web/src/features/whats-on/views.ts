export type ScheduleView = 'feature' | 'presentation';

export const VIEWS: readonly ScheduleView[] = ['feature', 'presentation'];

export function tabId(view: ScheduleView): string {
  return `whats-on-tab-${view}`;
}

export function panelId(view: ScheduleView): string {
  return `whats-on-panel-${view}`;
}
