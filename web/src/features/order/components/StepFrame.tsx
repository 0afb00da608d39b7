import { useMemo, useState, type ReactNode } from 'react';
import { StepFrameContext, type Frame } from '../hooks/stepFrame';
import './StepFrame.css';

/**
 * Around the step on show: while a "time expired" box is up (TimeExpired), the step's controls
 * are disabled (a disabled fieldset: still read out, nothing can be changed) and the box sits
 * above it, where its own buttons work.
 */
export function StepFrame({ children }: { children: ReactNode }) {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  const [locks, setLocks] = useState(0);
  const frame = useMemo<Frame>(
    () => ({
      slot,
      lock: () => setLocks((n) => n + 1),
      unlock: () => setLocks((n) => n - 1),
    }),
    [slot],
  );
  const locked = locks > 0;
  return (
    <StepFrameContext value={frame}>
      <div ref={setSlot} className="step-frame__expired" />
      <fieldset
        className="step-frame"
        role="none"
        disabled={locked}
        data-locked={locked || undefined}
      >
        {children}
      </fieldset>
    </StepFrameContext>
  );
}
