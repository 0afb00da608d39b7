// A seat's address: its section and grid cell, the one key of a seat everywhere (the server's
// `SeatAddress`). A seat plan's rows name the section `si`; the seat, cart and order calls name
// it `sectionId`. A numbered general-admission place has the same shape (x its number, y 0).

export interface SeatAddress {
  sectionId: number;
  x: number;
  y: number;
}

/** A seat plan's or seat status's compact row: the section is `si`. */
export interface PlanCell {
  si: number;
  x: number;
  y: number;
}

/** The one key of a seat address, whichever shape it comes in: `section:x:y`. */
export function seatKey(seat: SeatAddress | PlanCell): string {
  const section = 'si' in seat ? seat.si : seat.sectionId;
  return `${section}:${seat.x}:${seat.y}`;
}
