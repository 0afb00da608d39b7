// The data of the page a visitor lands on, at once: the pages would ask for it only after the
// configuration, the router and their own code, a round trip or two later (on a slow phone
// network that is the first poster a second late). The server writes the configuration and the
// landing page's first data into the page's HTML (crates/api/src/web.rs, decision 0056); what it
// did not write is asked for here, beside the configuration. Only the landing pages a visitor
// opens cold (what's on, an order) and only queries whose keys the pages own.
import type { QueryClient } from '@tanstack/react-query';
import type {
  FeaturesResponse,
  PresentationResponse,
  PresentationsByDateResponse,
  SiteConfig,
} from '../lib/api/types';
import { configQuery } from '../lib/config';
import { isCalendarDate, todayInCinema } from '../lib/format';
import { miniSiteOf } from '../lib/api/orderChannel';
import { featuresQuery, presentationsByDateQuery } from '../features/whats-on/api';
import { presentationQuery } from '../features/order/api/presentation';

/** What the server wrote into the landing page (`<script type="application/json" id="kupa-landing">`). */
export interface LandingData {
  config?: SiteConfig;
  presentationsByDate?: PresentationsByDateResponse;
  presentation?: PresentationResponse;
  /** The details of the day's features (`GET /features?featureIds=` of every feature of the day). */
  features?: FeaturesResponse;
}

export function readLandingData(doc: Pick<Document, 'getElementById'> = document): LandingData {
  const text = doc.getElementById('kupa-landing')?.textContent;
  if (!text) return {};
  try {
    const data: unknown = JSON.parse(text);
    return typeof data === 'object' && data !== null ? (data as LandingData) : {};
  } catch {
    return {};
  }
}

export function prefetchLanding(
  client: QueryClient,
  location: Pick<Location, 'pathname' | 'search'>,
  landing: LandingData = {},
) {
  if (landing.config) client.setQueryData(configQuery.queryKey, landing.config);
  const params = new URLSearchParams(location.search);
  if (location.pathname === '/') {
    const requested = params.get('date') ?? '';
    const date = isCalendarDate(requested) ? requested : todayInCinema();
    const query = presentationsByDateQuery(date);
    // The server's today may differ from the browser's around midnight: only the same day.
    if (landing.presentationsByDate?.date === date) {
      client.setQueryData(query.queryKey, landing.presentationsByDate);
      // The cards' details too, under the key the page asks them by (all the day's features): the
      // server's first screen shows the synopses, and so does the app's first frame.
      if (landing.features) {
        const ids = landing.presentationsByDate.presentations.map((p) => p.featureId);
        client.setQueryData(featuresQuery(ids).queryKey, landing.features);
      }
    } else {
      void client.prefetchQuery(query);
    }
    return;
  }
  const order = /^\/order\/(\d{1,12})\/?$/.exec(location.pathname);
  if (!order) return;
  const id = Number(order[1]);
  const query = presentationQuery(id);
  // The server writes the web shop's presentation; a mini-site's order asks for its own.
  const webShop = !params.has('miniSiteUrl') && !miniSiteOf(id);
  if (webShop && landing.presentation?.presentation.id === id) {
    client.setQueryData(query.queryKey, landing.presentation);
  } else {
    void client.prefetchQuery(query);
  }
}
