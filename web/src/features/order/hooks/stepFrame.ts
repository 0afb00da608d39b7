import { createContext } from 'react';

/** What TimeExpired needs of the frame around the step (components/StepFrame). */
export interface Frame {
  /** Where the "time expired" box goes: above the step, outside what it locks. */
  slot: HTMLElement | null;
  lock: () => void;
  unlock: () => void;
}

export const StepFrameContext = createContext<Frame | null>(null);
