import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { VIEWS, panelId, tabId, type ScheduleView } from '../views';

/** The two ways to read the schedule, as an ARIA tab list (arrow keys move between tabs). */
export function ViewTabs({
  view,
  onChange,
}: {
  view: ScheduleView;
  onChange: (view: ScheduleView) => void;
}) {
  const { t } = useTranslation();
  const refs = useRef<Partial<Record<ScheduleView, HTMLButtonElement | null>>>({});
  const labels: Record<ScheduleView, string> = {
    feature: t('whatsOn.byFeature'),
    presentation: t('whatsOn.byPresentation'),
  };

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
    if (!keys.includes(event.key)) return;
    event.preventDefault();
    const index = VIEWS.indexOf(view);
    // In a right-to-left page the visual order of the tabs is mirrored, so is the arrow's sense.
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const forward = (event.key === 'ArrowRight') !== rtl;
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? VIEWS.length - 1
          : (index + (forward ? 1 : -1) + VIEWS.length) % VIEWS.length;
    const nextView = VIEWS[next];
    onChange(nextView);
    refs.current[nextView]?.focus();
  }

  return (
    <div className="view-tabs" role="tablist" aria-label={t('whatsOn.views')} onKeyDown={onKeyDown}>
      {VIEWS.map((v) => (
        <button
          key={v}
          ref={(el) => {
            refs.current[v] = el;
          }}
          id={tabId(v)}
          type="button"
          role="tab"
          className="view-tabs__tab"
          aria-selected={v === view}
          aria-controls={v === view ? panelId(v) : undefined}
          tabIndex={v === view ? 0 : -1}
          onClick={() => onChange(v)}
        >
          {labels[v]}
        </button>
      ))}
    </div>
  );
}
