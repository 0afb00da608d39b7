// Spec section 9: toasts stay 3,000 ms; loading indicators wait 200 ms before they show.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { LOADING_DELAY_MS, Loading } from './Loading';
import { TOAST_MS, Toast } from './Toast';

beforeEach(async () => {
  vi.useFakeTimers();
  await i18n.changeLanguage('en');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('toast', () => {
  it('stays 3,000 ms, then asks to be taken away', () => {
    expect(TOAST_MS).toBe(3000);
    const onDone = vi.fn();
    render(<Toast message="Saved" onDone={onDone} />);
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    act(() => vi.advanceTimersByTime(2999));
    expect(onDone).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('keeps its live region while there is nothing to say, so the next message is heard', () => {
    const onDone = vi.fn();
    const { rerender } = render(<Toast message={null} onDone={onDone} />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    act(() => vi.advanceTimersByTime(10_000));
    expect(onDone).not.toHaveBeenCalled();
    rerender(<Toast message="More time" onDone={onDone} />);
    expect(screen.getByRole('status')).toHaveTextContent('More time');
  });
});

describe('loading indicator', () => {
  it('shows nothing for the first 200 ms, then the spinner with its spoken label', () => {
    expect(LOADING_DELAY_MS).toBe(200);
    render(<Loading />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText('Loading…')).toBeNull();
    act(() => vi.advanceTimersByTime(199));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
  });

  it('never shows when the wait is over sooner', () => {
    const { unmount } = render(<Loading block />);
    act(() => vi.advanceTimersByTime(150));
    unmount();
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
