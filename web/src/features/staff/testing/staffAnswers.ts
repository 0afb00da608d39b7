// For the staff screens' tests: the server's answers every staff screen asks for first.

/** GET /staff/me: a staff user of the given role (a manager by default) and businesses. */
export function staffUser(role = 'manager', businessIds = [1]) {
  return {
    user: {
      FirstName: 'Noa',
      LastName: 'Mizrahi',
      userId: 1,
      businessIds,
      role,
      email: 'manager@kupa.example',
      hasTotp: false,
    },
  };
}

/** The port's complex, of business 1. */
export const PORT = { id: 2, name: 'נמל', nameEn: 'Port', businessId: 1, isCinema: true };

/** GET /PRES-live/getCinemaFilterData: the port's complex and three days around 2030-06-12. */
export function cinemaFilterData(overrides: Record<string, unknown> = {}) {
  return {
    locations: [PORT],
    productClasses: [],
    weekendDays: [5, 6],
    calendarFrom: '2030-06-11',
    calendarTo: '2030-06-13',
    today: '2030-06-12',
    ...overrides,
  };
}
