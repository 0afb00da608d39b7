// The editor's plan and the server's (docs/api.md, "Seat plans"): read with ids for the editor,
// sent back with false flags and empty texts left out, and a refusal's `params.field` found again
// in the plan that was sent. Pure.
import type { components } from '../../../lib/api/schema';
import type { EditorPlan } from './model';

export type SeatPlanDoc = components['schemas']['SeatPlanDoc'];

/** A plan read from the server, with ids for the editor (s…, r…, k… drawn in order). */
export function fromDoc(doc: SeatPlanDoc): EditorPlan {
  let n = 0;
  const id = (prefix: string) => `${prefix}${++n}`;
  return {
    name: doc.name,
    width: doc.width,
    height: doc.height,
    screen: { ...doc.screen, labelEn: doc.screen.labelEn ?? '', label: doc.screen.label ?? '' },
    sections: doc.sections.map((s) => ({
      id: id('s'),
      name: s.name,
      nameEn: s.nameEn ?? '',
      kind: s.kind === 'ga' ? 'ga' : 'reserved',
      ticketGroupId: s.ticketGroupId,
      priceLevel: s.priceLevel ?? 1,
      capacity: s.capacity ?? 0,
      rows: (s.rows ?? []).map((r) => ({
        id: id('r'),
        name: r.name,
        line: r.line,
        seats: [...r.seats]
          .sort((a, b) => a.x - b.x)
          .map((k) => ({
            id: id('k'),
            x: k.x,
            y: k.y,
            name: k.name,
            premium: k.premium ?? false,
            wheelchair: k.wheelchair ?? false,
            companion: k.companion ?? false,
            limitedView: k.limitedView ?? false,
            sofa: k.sofa ?? null,
            attributes: k.attributes ?? '',
          })),
      })),
    })),
  };
}

/** The plan as the server takes it: false flags and empty texts left out. */
export function toDoc(plan: EditorPlan): SeatPlanDoc {
  return {
    name: plan.name,
    width: plan.width,
    height: plan.height,
    screen: { ...plan.screen },
    sections: plan.sections.map((s) => ({
      name: s.name,
      nameEn: s.nameEn,
      kind: s.kind,
      ticketGroupId: s.ticketGroupId,
      priceLevel: s.priceLevel,
      ...(s.kind === 'ga' ? { capacity: s.capacity, rows: [] } : {}),
      ...(s.kind === 'reserved'
        ? {
            rows: s.rows.map((r) => ({
              name: r.name,
              line: r.line,
              seats: r.seats.map((k) => ({
                x: k.x,
                y: k.y,
                name: k.name,
                ...(k.premium ? { premium: true } : {}),
                ...(k.wheelchair ? { wheelchair: true } : {}),
                ...(k.companion ? { companion: true } : {}),
                ...(k.limitedView ? { limitedView: true } : {}),
                ...(k.sofa !== null ? { sofa: k.sofa } : {}),
                ...(k.attributes ? { attributes: k.attributes } : {}),
              })),
            })),
          }
        : {}),
    })),
  };
}

/** What a server's `params.field` points at in the plan that was sent. */
export function fieldTarget(
  plan: EditorPlan,
  field: string,
): { section?: string; row?: string; seat?: string } {
  const m = /^plan\.sections\[(\d+)\](?:\.rows\[(\d+)\](?:\.seats\[(\d+)\])?)?/.exec(field);
  if (!m) return {};
  const section = plan.sections[Number(m[1])];
  const row = m[2] === undefined ? undefined : section?.rows[Number(m[2])];
  const seat = m[3] === undefined ? undefined : row?.seats[Number(m[3])];
  return { section: section?.id, row: row?.id, seat: seat?.id };
}
