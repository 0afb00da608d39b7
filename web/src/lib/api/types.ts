// The API's types, all taken from the server's OpenAPI document (openapi.json → schema.d.ts via
// `npm run gen-api`). Never write a wire type by hand here: add it to the server and regenerate.
import type { components } from './schema';

type Schemas = components['schemas'];

export type SiteConfig = Schemas['ConfigResponse'];
export type LocaleSettings = Schemas['LocaleInfo'];
export type RouteSettings = Schemas['RoutePaths'];
export type Currency = Schemas['Currency'];
export type TimerMode = Schemas['TimerMode'];

export type Presentation = Schemas['Presentation'];
export type Feature = Schemas['Feature'];

export type PresentationsByDateResponse = Schemas['PresentationsByDateResponse'];
export type UpcomingPresentationsResponse = Schemas['PresentationListResponse'];
export type PresentationResponse = Schemas['PresentationResponse'];
export type FeaturesResponse = Schemas['FeatureListResponse'];

export type ApiErrorBody = Schemas['ErrorBody'];

/** Presentation.saleState: where the sale stands at the response's serverTime. */
export type SaleState = 'notYetStarted' | 'onSale' | 'ended';

// Seats and holds (the order's seat step).
export type SeatplanV2 = Schemas['SeatplanV2'];
export type SeatplanV2Response = Schemas['SeatplanV2Response'];
export type SeatShort = Schemas['SeatShort'];
export type SeatplanSection = Schemas['Section'];
export type SeatStatusShort = Schemas['SeatStatusShort'];
export type SectionStatus = Schemas['SectionStatus'];
export type SeatsStatusV2Response = Schemas['SeatsStatusV2Response'];
export type SeatsStatusCompactResponse = Schemas['SeatsStatusCompactResponse'];
export type SeatRef = Schemas['SeatRef'];
export type LockBody = Schemas['LockBody'];
export type LockResponse = Schemas['LockResponse'];
export type LockedSeat = Schemas['LockedSeat'];
export type UnlockResponse = Schemas['UnlockResponse'];
export type MyHoldsResponse = Schemas['MyHoldsResponse'];
export type BestAvailableResponse = Schemas['BestAvailableResponse'];
export type CheckoutResponse = Schemas['CheckoutResponse'];

// Tickets, codes and the cart (the order's tickets and products steps).
export type Ticket = Schemas['Ticket'];
export type TicketGroup = Schemas['TicketGroup'];
export type TicketGroupsResponse = Schemas['TicketGroupsResponse'];
export type TicketByCodeResponse = Schemas['TicketByCodeResponse'];
export type Product = Schemas['Product'];
export type CartBody = Schemas['CartBody'];
export type CartSeatIn = Schemas['CartSeatIn'];
export type CartResponse = Schemas['CartResponse'];
export type PricedCart = Schemas['PricedCartDto'];
/** How an order's price is shown everywhere: the lines adding up to its total. */
export type PriceBreakdown = Schemas['PriceBreakdown'];
/** The business's service-charge rule (per ticket or per order). */
export type ServiceCharge = Schemas['ServiceCharge'];

/** Presentation.salesClosed: the sales switch that stops the sale (decision 0067). */
export type SalesClosed =
  'locationOffline' | 'advanced_sales_not_allowed_by_outlet' | 'noTicketsInChannel';
