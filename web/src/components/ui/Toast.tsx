import { useEffect } from 'react';
import './Toast.css';

/** How long a toast stays (spec section 9). */
export const TOAST_MS = 3000;

/**
 * A short message that goes away by itself after TOAST_MS. The live region is always there, so a
 * screen reader hears the message when it comes; `onDone` is called when its time is up.
 */
export function Toast({ message, onDone }: { message: string | null; onDone: () => void }) {
  useEffect(() => {
    if (message === null) return;
    const timer = window.setTimeout(onDone, TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [message, onDone]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {message !== null && <p className="toast">{message}</p>}
    </div>
  );
}
