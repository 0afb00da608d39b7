import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeConfig, makePresentation } from '../test/fixtures';
import { renderApp } from '../test/renderApp';
import { normalizeConfig } from '../lib/config';
import { externalTarget } from './externalAddress';
import { ROUTE_PAGES } from './pages';
import pagesSource from './pages.ts?raw';
import { ROUTE_FILE_ENTRIES, replaceFirstSegment, resolveRoutes } from './routeTable';

const EN_404 = 'This page could not be found.';
const HE_404 = 'הדף לא נמצא.';

describe('route list', () => {
  it('maps every route of routes.json to a page', () => {
    for (const entry of ROUTE_FILE_ENTRIES) expect(ROUTE_PAGES[entry.id], entry.id).toBeDefined();
  });

  it("names, for the server's preloads, the module the route really loads", () => {
    const withPage = ROUTE_FILE_ENTRIES.filter((e) => e.page);
    expect(withPage.map((e) => e.id)).toEqual(['index', 'order']);
    for (const { id, page } of withPage) {
      const module = `../${page!.replace(/^src\//, '').replace(/\.tsx$/, '')}`;
      expect(pagesSource, id).toContain(`${id}: lazyPage(() => import('${module}'))`);
    }
  });

  it('takes the first segment of configured routes from the configuration', () => {
    const config = normalizeConfig(
      makeConfig({
        routes: {
          vod: '/watch',
          systemVouchers: '/gift',
          memberships: '/club',
          miniSite: '/promo',
        },
      }),
    );
    const paths = Object.fromEntries(resolveRoutes(config).map((r) => [r.id, r.path]));
    expect(paths).toMatchObject({
      vod: '/watch',
      systemVouchers: '/gift',
      memberships: '/club',
      miniSiteIndex: '/promo',
      miniSite: '/promo/:url',
      order: '/order/:presentationId',
    });
    expect(replaceFirstSegment('/mini-site/:url', '/a/b/')).toBe('/a/b/:url');
  });
});

describe('routing rules', () => {
  it('shows the Hebrew 404 page, right to left, for an unknown route', async () => {
    await renderApp('/nope');
    expect(await screen.findByRole('heading', { name: HE_404 })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'he');
  });

  it('shows the English 404 page for an unknown route with ?lang=en', async () => {
    await renderApp('/nope?lang=en');
    expect(await screen.findByRole('heading', { name: EN_404 })).toBeInTheDocument();
  });

  it('answers a language that is not enabled with the 404 page, in English', async () => {
    await renderApp('/?lang=xx');
    expect(await screen.findByRole('heading', { name: EN_404 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: "What's on" })).not.toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
  });

  it('refuses an empty ?lang=, as the server does', async () => {
    await renderApp('/?lang=');
    expect(await screen.findByRole('heading', { name: EN_404 })).toBeInTheDocument();
  });

  it('matches paths case-sensitively, as the server does', async () => {
    await renderApp('/ORDER');
    expect(await screen.findByRole('heading', { name: HE_404 })).toBeInTheDocument();
  });

  it('refuses a supported language the site has not enabled', async () => {
    await renderApp('/?lang=ru');
    expect(await screen.findByRole('heading', { name: EN_404 })).toBeInTheDocument();
  });

  it('turns the page left to right for ?lang=en', async () => {
    await renderApp('/?lang=en', { api: () => ({ body: { presentations: [], serverTime: '' } }) });
    expect(await screen.findByRole('heading', { name: "What's on", level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
    expect(document.documentElement).toHaveAttribute('lang', 'en');
  });

  it('is Hebrew and right to left without ?lang', async () => {
    await renderApp('/', { api: () => ({ body: { presentations: [], serverTime: '' } }) });
    expect(await screen.findByRole('heading', { name: 'מה מוקרן', level: 1 })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('does not redirect to a host outside the allow list', async () => {
    await renderApp('/https://evil.example/steal');
    expect(await screen.findByRole('heading', { name: HE_404 })).toBeInTheDocument();
  });

  it('has a footer with the legal pages on every page, each a real page', async () => {
    const first = await renderApp('/nope?lang=en');
    const footer = await screen.findByRole('contentinfo');
    const nav = within(footer).getByRole('navigation', { name: 'Site information' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Terms of use', '/terms?lang=en'],
      ['Privacy policy', '/privacy?lang=en'],
      ['Contact us', '/contact?lang=en'],
      ['Accessibility statement', '/accessibility?lang=en'],
    ]);
    const shop = within(footer).getByRole('navigation', { name: 'More from us' });
    expect(
      within(shop)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Gift vouchers', '/system-vouchers?lang=en'],
      ['Memberships and film passes', '/memberships?lang=en'],
      ['Donate', '/donations?lang=en'],
    ]);
    first.unmount();

    await renderApp('/accessibility');
    expect(
      await screen.findByRole('heading', { name: 'הצהרת נגישות', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'רכזת הנגישות' })).toBeInTheDocument();
    expect(screen.getByText(/ת"י 5568/)).toBeInTheDocument();
    expect(screen.getByText(/רשת הדגמה/)).toBeInTheDocument();
  });

  it("shows the chain's ticket terms from the site config on the terms page", async () => {
    await renderApp('/terms?lang=en');
    expect(await screen.findByRole('heading', { name: 'Ticket terms' })).toBeInTheDocument();
  });

  it('says "not found" for a refused external address in the language it asks for', async () => {
    await renderApp('/https://evil.example/steal?lang=en');
    expect(await screen.findByRole('heading', { name: EN_404 })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'en'));
  });

  it('serves configured paths and not the default ones', async () => {
    const config = makeConfig({
      routes: {
        vod: '/watch',
        systemVouchers: '/system-vouchers',
        memberships: '/memberships',
        miniSite: '/mini-site',
      },
    });
    const first = await renderApp('/watch?lang=en', { config });
    expect(await screen.findByRole('heading', { name: 'Video on demand' })).toBeInTheDocument();
    expect(screen.getByText('Your films are in your customer area')).toBeInTheDocument();
    first.unmount();

    await renderApp('/vod?lang=en', { config });
    expect(await screen.findByRole('heading', { name: EN_404 })).toBeInTheDocument();
  });

  it.each(['/PRES-live', '/PRES-live/attendance'])(
    'opens live monitoring at %s with the staff login',
    async (path) => {
      await renderApp(`${path}?lang=en`, {
        api: (url) =>
          url.pathname === '/api/staff/me'
            ? { status: 401, body: { error: { code: 'loginError', message: '' } } }
            : undefined,
      });
      expect(
        await screen.findByRole('heading', { name: 'Staff login', level: 1 }),
      ).toBeInTheDocument();
    },
  );

  it.each([['/order', 'Order tickets']])(
    'says plainly that %s is not available yet',
    async (path, title) => {
      await renderApp(`${path}?lang=en`);
      expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
      expect(
        screen.getByRole('heading', { name: 'This screen is not available yet.' }),
      ).toBeInTheDocument();
    },
  );

  it.each(['/mini-site', '/mini-site/summer'])(
    'says %s names no mini-site when there is none',
    async (path) => {
      await renderApp(`${path}?lang=en`, {
        api: (url) =>
          url.pathname === '/api/mini-site/summer'
            ? { status: 404, body: { error: { code: 'notFound', message: '' } } }
            : undefined,
      });
      expect(
        await screen.findByRole('heading', { name: 'There is no mini-site at this address' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Mini-site', level: 1 })).toBeInTheDocument();
    },
  );

  it('keeps ?lang on in-app links', async () => {
    await renderApp('/mini-site?lang=en');
    const link = await screen.findByRole('link', { name: 'To all films' });
    expect(link).toHaveAttribute('href', '/?lang=en');
  });

  it('works on product defaults when the configuration cannot be loaded', async () => {
    await renderApp('/nope?lang=en', { config: null });
    expect(
      await screen.findByRole('heading', { name: EN_404 }, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('switches language from the header, keeping the page', async () => {
    const presentation = makePresentation();
    const { getRouter } = await renderApp('/order/101', {
      api: (url) =>
        url.pathname === '/api/presentations/101'
          ? { body: { presentation, serverTime: '2026-07-14T09:00:00Z', error: null } }
          : undefined,
    });
    // The order page's code loads first: slow on a busy machine.
    expect(
      await screen.findByRole('heading', { name: 'הסרט הגדול' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    const english = screen.getByRole('link', { name: 'English' });
    expect(english).toHaveAttribute('href', '/order/101?lang=en');
    english.click();
    expect(await screen.findByRole('heading', { name: 'The Big Movie' })).toBeInTheDocument();
    expect(getRouter()?.state.location.search).toBe('?lang=en');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
  });
});

describe('external redirects', () => {
  const allow = ['tickets.example.org', '*.partner.example'];

  it('goes to allow-listed hosts, with the query and fragment', () => {
    expect(externalTarget('/https://tickets.example.org/x', '?a=1', '#b', allow)).toBe(
      'https://tickets.example.org/x?a=1#b',
    );
    expect(externalTarget('/http://shop.partner.example/', '', '', allow)).toBe(
      'http://shop.partner.example/',
    );
  });

  it('refuses every other address', () => {
    expect(externalTarget('/https://evil.example', '', '', allow)).toBeNull();
    expect(externalTarget('/https://tickets.example.org.evil.example/', '', '', allow)).toBeNull();
    expect(externalTarget('/https://user:pw@tickets.example.org/', '', '', allow)).toBeNull();
    expect(externalTarget('/httpfoo', '', '', allow)).toBeNull();
    expect(externalTarget('/order/1', '', '', allow)).toBeNull();
    expect(externalTarget('/https://partner.example/', '', '', allow)).toBeNull();
  });
});
