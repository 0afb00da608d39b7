// The films' and products' calls of the back office (docs/api.md, "Films and products"):
// managers only. Types come from the server's OpenAPI document; this file owns their query keys.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiPutFile, apiSend } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type FilmDto = Schemas['FilmDto'];
export type FilmBody = Schemas['FilmBody'];
export type FilmsResponse = Schemas['FilmsResponse'];
export type FilmResponse = Schemas['FilmResponse'];
export type Category = Schemas['CategoryDto'];
export type ProductDto = Schemas['ProductDto'];
export type ProductBody = Schemas['ProductBody'];
export type ProductsResponse = Schemas['ProductsResponse'];
export type ProductResponse = Schemas['ProductResponse'];
export type ProductComplex = Schemas['ProductComplexDto'];

export const catalogueKeys = {
  films: ['staff', 'films'] as const,
  products: ['staff', 'products'] as const,
};

export function filmsQuery() {
  return queryOptions({
    queryKey: catalogueKeys.films,
    queryFn: ({ signal }) => apiGet<FilmsResponse>('/staff/films', undefined, signal),
    retry: false,
  });
}

export function addFilm(body: FilmBody) {
  return apiSend<FilmResponse>('POST', '/staff/films', body);
}

export function changeFilm(id: number, body: FilmBody) {
  return apiSend<FilmResponse>('PUT', `/staff/films/${id}`, body);
}

/** The poster's image as it is (JPEG or PNG): the server keeps it in the storefront's sizes. */
export function uploadPoster(id: number, file: Blob) {
  return apiPutFile<FilmResponse>(`/staff/films/${id}/poster`, file);
}

export function productsQuery() {
  return queryOptions({
    queryKey: catalogueKeys.products,
    queryFn: ({ signal }) => apiGet<ProductsResponse>('/staff/products', undefined, signal),
    retry: false,
  });
}

export function addProduct(body: ProductBody) {
  return apiSend<ProductResponse>('POST', '/staff/products', body);
}

export function changeProduct(id: number, body: ProductBody) {
  return apiSend<ProductResponse>('PUT', `/staff/products/${id}`, body);
}

/** A product's picture as it is (JPEG or PNG): the server keeps a square of it, 240 and 480 px. */
export function uploadProductImage(id: number, file: Blob) {
  return apiPutFile<ProductResponse>(`/staff/products/${id}/image`, file);
}

/** Takes a product's uploaded picture away: the generated one (icon on colour) is shown again. */
export function removeProductImage(id: number) {
  return apiSend<ProductResponse>('DELETE', `/staff/products/${id}/image`, undefined);
}
