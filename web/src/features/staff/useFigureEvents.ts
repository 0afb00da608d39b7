// The live monitoring views follow sales as they happen (issue 16: within 2 s, pushed, not
// polled): GET /PRES-live/events says which business days and locations just had a seat held,
// released or sold (gathered over 250 ms on the server), and the views showing them are read
// again. React Query refetches only the views on screen (the others are marked stale and read on
// return), and a refetch started while an older one is on its way cancels it, so a stale answer
// never lands over a newer one.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { API_BASE } from '../../lib/api/client';
import { touches, type FiguresChanged } from './model';

export function useFigureEvents(enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(`${API_BASE}/PRES-live/events`);
    let opened = false;
    const refresh = (change: FiguresChanged) =>
      void queryClient.invalidateQueries({ predicate: (q) => touches(q.queryKey, change) });
    source.addEventListener('ready', () => {
      setLive(true);
      // Reconnected: changes may have been missed meanwhile.
      if (opened) refresh({ dates: [], locations: [], presentationIds: [], all: true });
      opened = true;
    });
    source.addEventListener('figures', (e) => {
      try {
        refresh(JSON.parse((e as MessageEvent<string>).data) as FiguresChanged);
      } catch {
        // A malformed event changes nothing.
      }
    });
    source.addEventListener('error', () => setLive(false));
    return () => {
      source.close();
      setLive(false);
    };
  }, [enabled, queryClient]);
  return live;
}
