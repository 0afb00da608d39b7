// The amount of the donation picked: a fixed one, or the donor's own in whole shekels between the
// detail's bounds (the server checks it again).
import type { Donation } from '../../lib/api/gifts';

export interface DonationPick {
  donationId: number;
  detailId: number;
}

export type DonationAmount =
  | { ok: true; agorot: number; problem: false; min: number; max: number }
  | { ok: false; agorot: 0; problem: boolean; min: number; max: number };

export function donationAmount(
  donation: Donation | undefined,
  pick: DonationPick | null,
  custom: string,
): DonationAmount {
  const detail = donation?.details.find((d) => d.id === pick?.detailId);
  if (!detail) return { ok: false, agorot: 0, problem: false, min: 0, max: 0 };
  if (!detail.customAmount) {
    return { ok: true, agorot: detail.amount, problem: false, min: 0, max: 0 };
  }
  const min = Math.max(detail.min, 100);
  const max = detail.max;
  const shekels = Number(custom);
  const agorot = shekels * 100;
  if (custom === '' || !Number.isInteger(shekels) || agorot < min || agorot > max) {
    return { ok: false, agorot: 0, problem: custom !== '', min, max };
  }
  return { ok: true, agorot, problem: false, min, max };
}
