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
