import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/renderApp';
import { onceEach, toneOf } from './model';

const usher = {
  user: {
    FirstName: 'Avi',
    LastName: 'Peretz',
    userId: 2,
    businessIds: [1],
    role: 'usher',
    email: 'usher@kupa.example',
    hasTotp: false,
  },
};

const presentation = {
  id: 1007,
  businessId: 1,
  dateTime: '2030-06-12T17:30:00Z',
  entranceTime: '2030-06-12T17:00:00Z',
  endTime: '2030-06-12T19:04:00Z',
  featureName: 'הכלב של השכנים',
  featureNameEn: "The Neighbours' Dog",
  locationName: 'קופה נמל תל אביב',
  locationNameEn: 'Kupa Tel Aviv Port',
  venueName: 'אולם 1 – האולם הגדול',
  venueNameEn: 'Hall 1 – Grand Hall',
};

const ticket = {
  ticketNumber: '5728-1453-1',
  reservationNumber: '5728-1453',
  number: 1,
  count: 2,
  section: 'קדמי',
  sectionEn: 'Front stalls',
  row: '4',
  seat: '17',
  ticketType: 'רגיל',
  ticketTypeEn: 'Regular',
  scannedAt: '2030-06-12T17:05:00Z',
  presentation,
};

const answers: Record<string, { status?: number; body: unknown }> = {
  '5728-1453-1': { body: { result: 'valid', ticket, serverTime: '' } },
  '5728-1453-2': {
    body: { result: 'alreadyScanned', ticket, scannedAt: '2030-06-12T17:05:00Z', serverTime: '' },
  },
  '1111-2222-1': {
    body: {
      result: 'wrongPresentation',
      ticket: { ...ticket, scannedAt: null, presentation: { ...presentation, id: 9 } },
      serverTime: '',
    },
  },
  '3333-4444-1': {
    body: { result: 'tooEarly', ticket, entranceTime: '2030-06-12T17:00:00Z', serverTime: '' },
  },
  '0000-0000-1': { body: { result: 'notFound', serverTime: '' } },
  '9999-9999-1': {
    status: 429,
    body: { error: { code: 'tooManyRequests', message: '', params: { retryAfterSeconds: 3 } } },
  },
};

async function atTheDoor(lang: 'en' | 'he') {
  const scans: unknown[] = [];
  await renderApp(`/PRES-live/door?lang=${lang}`, {
    api: (url, init) => {
      if (url.pathname === '/api/staff/me') return { body: usher };
      if (url.pathname === '/api/staff/door/presentations')
        return { body: { presentations: [presentation], serverTime: '' } };
      if (url.pathname === '/api/staff/door/scan') {
        const body = JSON.parse(String(init?.body)) as { code: string; presentationId: number };
        scans.push(body);
        return answers[body.code];
      }
      return undefined;
    },
  });
  return scans;
}

async function check(code: string) {
  const field = screen.getByRole('textbox', { name: /ticket number|מספר כרטיס/i });
  fireEvent.change(field, { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: /^check$|^בדיקה$/i }));
}

describe('the door', () => {
  it('checks typed ticket numbers at the chosen screening and answers in words, colour and icon', async () => {
    const scans = await atTheDoor('en');
    const select = await screen.findByRole('combobox', { name: /screening whose door you guard/i });
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    fireEvent.change(select, { target: { value: '1007' } });
    expect(await screen.findByText(/entry open from 20:00 to 22:04/i)).toBeInTheDocument();
    // jsdom has no camera: the screen says so and the typed number still works.
    expect(await screen.findByText(/no access to the camera/i)).toBeInTheDocument();

    await check('5728-1453-1');
    const valid = await screen.findByText('Valid – come in');
    const region = valid.closest('[aria-live]') as HTMLElement;
    expect(region).toHaveAttribute('aria-live', 'assertive');
    expect(region.querySelector('[data-result="valid"]')).toHaveClass('door-answer--ok');
    expect(region.querySelector('svg')).toBeInTheDocument();
    expect(within(region).getByText('17')).toBeInTheDocument();
    expect(within(region).getByText('Front stalls')).toBeInTheDocument();
    expect(within(region).getByText('Regular')).toBeInTheDocument();
    expect(scans).toEqual([{ presentationId: 1007, code: '5728-1453-1' }]);

    await check('5728-1453-2');
    expect(await within(region).findByText('Already scanned')).toBeInTheDocument();
    expect(within(region).getByText(/scanned at .*20:05/i)).toBeInTheDocument();
    expect(region.querySelector('[data-result="alreadyScanned"]')).toHaveClass('door-answer--stop');

    await check('1111-2222-1');
    expect(await within(region).findByText('Another screening')).toBeInTheDocument();
    expect(
      within(region).getByText(/this ticket is for: the neighbours' dog/i),
    ).toBeInTheDocument();
    expect(region.querySelector('[data-result="wrongPresentation"]')).toHaveClass(
      'door-answer--warn',
    );

    await check('3333-4444-1');
    expect(await within(region).findByText('Too early')).toBeInTheDocument();
    expect(within(region).getByText(/entry opens at 20:00/i)).toBeInTheDocument();

    await check('0000-0000-1');
    expect(await within(region).findByText('Ticket not found')).toBeInTheDocument();
    expect(within(region).queryByText('17')).not.toBeInTheDocument();

    await check('9999-9999-1');
    expect(await within(region).findByText(/too many checks/i)).toBeInTheDocument();
  });

  it('answers in Hebrew, right to left', async () => {
    await atTheDoor('he');
    fireEvent.change(await screen.findByRole('combobox'), { target: { value: '1007' } });
    await waitFor(() => expect(screen.getByRole('textbox')).toBeInTheDocument());
    await check('5728-1453-1');
    expect(await screen.findByText('בתוקף – אפשר להיכנס')).toBeInTheDocument();
    expect(screen.getByText('קדמי')).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('בדיקת כרטיסים בכניסה');
  });
});

describe('the door rules', () => {
  it('colours only valid green, and what the holder can fix amber', () => {
    expect(toneOf('valid')).toBe('ok');
    expect(toneOf('wrongPresentation')).toBe('warn');
    expect(toneOf('tooEarly')).toBe('warn');
    for (const r of ['alreadyScanned', 'cancelled', 'tooLate', 'notPaid', 'notFound'] as const)
      expect(toneOf(r)).toBe('stop');
  });

  it('passes a code the camera keeps reading on once, until it has been out of sight', () => {
    const { fresh } = onceEach(4000);
    expect(fresh('a', 0)).toBe(true);
    expect(fresh('a', 1000)).toBe(false);
    expect(fresh('a', 4500)).toBe(false);
    expect(fresh('b', 4600)).toBe(true);
    expect(fresh('a', 4700)).toBe(true);
    expect(fresh('a', 9000)).toBe(true);
  });

  it('checks a code again soon after its check failed, though it never left the camera', () => {
    const seen = onceEach(4000);
    expect(seen.fresh('a', 0)).toBe(true);
    seen.failed('a', 300);
    expect(seen.fresh('a', 450)).toBe(false);
    expect(seen.fresh('a', 1700)).toBe(false);
    expect(seen.fresh('a', 1850)).toBe(true);
    // Once: the next reads are the same showing again.
    expect(seen.fresh('a', 2000)).toBe(false);
    expect(seen.fresh('a', 3500)).toBe(false);
  });
});
