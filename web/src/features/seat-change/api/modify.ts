// The seat change (POST /reservations/{id}/modify). Once done, the reservation and the seat map's
// state are read again (their keys belong to lib/api/reservations and the shared seat map).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { seatMapKeys } from '../../../lib/api/seatKeys';
import { apiSend } from '../../../lib/api/client';
import { reservationKeys } from '../../../lib/api/reservations';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type ModifyBody = Schemas['ModifyBody'];
export type ModifyResponse = Schemas['ModifyResponse'];

export function modifyReservation(id: string, body: ModifyBody): Promise<ModifyResponse> {
  return apiSend<ModifyResponse>('POST', `/reservations/${encodeURIComponent(id)}/modify`, body);
}

export function useModifyReservation(id: string, presentationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['modifyReservation', id] as const,
    mutationFn: (body: ModifyBody) => modifyReservation(id, body),
    onSettled: async () => {
      // Taken or not, the map shows the seats as they are now; the reservation as it is now.
      void queryClient.invalidateQueries({ queryKey: seatMapKeys.status(presentationId) });
      await queryClient.invalidateQueries({ queryKey: reservationKeys.one(id) });
    },
  });
}
