import { describe, expect, it } from 'vitest';
import {
  agorot,
  emptyFilm,
  emptyProduct,
  filmBody,
  filmSchema,
  posterProblem,
  posterRefusal,
  productBody,
  productSchema,
  productValues,
  serverFieldErrors,
  FILM_FIELDS,
} from './model';

const film = {
  ...emptyFilm(2),
  name: 'סרט',
  nameEn: 'A film',
  runtime: '95',
  releaseDate: '2030-06-01',
};

function issues(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries(
    (result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]),
  );
}

describe('the film form', () => {
  it('takes a whole film and sends numbers and trimmed text', () => {
    expect(filmSchema.safeParse(film).success).toBe(true);
    const body = filmBody({ ...film, name: '  סרט ', trailerUrl: ' https://v.example/t ' });
    expect(body).toMatchObject({
      name: 'סרט',
      categoryId: 2,
      runtime: 95,
      trailerUrl: 'https://v.example/t',
    });
  });

  it('names each broken rule as the server does', () => {
    const bad = {
      ...film,
      name: ' ',
      runtime: '0',
      releaseDate: '2030-13-45',
      trailerUrl: 'http://v.example/t',
      categoryId: '',
    };
    expect(issues(filmSchema.safeParse(bad))).toEqual({
      name: 'required',
      runtime: 'min',
      releaseDate: 'date',
      trailerUrl: 'https',
      categoryId: 'category',
    });
    expect(issues(filmSchema.safeParse({ ...film, runtime: '601' }))).toEqual({ runtime: 'max' });
    expect(issues(filmSchema.safeParse({ ...film, runtime: '1.5' }))).toEqual({ runtime: 'min' });
  });

  it('puts the server field errors on the fields the form has', () => {
    const params = { fields: { runtime: 'min', nameEn: 'max', somethingElse: 'required' } };
    expect(serverFieldErrors(params, FILM_FIELDS)).toEqual({ runtime: 'min', nameEn: 'max' });
    expect(serverFieldErrors(undefined, FILM_FIELDS)).toEqual({});
  });
});

describe('the poster', () => {
  it('is a JPEG or PNG of at most 5 MB', () => {
    expect(posterProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(posterProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 })).toBeNull();
    expect(posterProblem({ type: 'image/gif', size: 1000 })).toBe('imageType');
    expect(posterProblem({ type: 'image/png', size: 5 * 1024 * 1024 + 1 })).toBe('max');
  });

  it('reads why the server refused it', () => {
    expect(posterRefusal('formValidation', { fields: { poster: 'imageSize' } })).toBe('imageSize');
    expect(posterRefusal('payloadTooLarge', undefined)).toBe('max');
    expect(posterRefusal('forbidden', undefined)).toBeNull();
  });

  it("reads a product picture's refusal from its own field", () => {
    const params = { fields: { image: 'imageType' } };
    expect(posterRefusal('formValidation', params, 'image')).toBe('imageType');
    expect(posterRefusal('formValidation', params)).toBeNull();
  });
});

describe('the product form', () => {
  it('takes shekels and sends agorot', () => {
    expect(agorot('24.90')).toBe(2490);
    expect(agorot('24,9')).toBe(2490);
    expect(agorot('0')).toBe(0);
    expect(agorot('-1')).toBeNull();
    expect(agorot('1.234')).toBeNull();
    const values = {
      ...emptyProduct(),
      name: 'פופקורן',
      nameEn: 'Popcorn',
      price: '18',
      locationIds: ['2'],
    };
    expect(productSchema(false).safeParse(values).success).toBe(true);
    expect(productBody(values)).toMatchObject({ price: 1800, locationIds: [2], everywhere: false });
    expect(productBody({ ...values, everywhere: true }).locationIds).toEqual([]);
  });

  it('must be sold somewhere unless other businesses sell it', () => {
    const values = { ...emptyProduct(), name: 'א', nameEn: 'A', price: '5' };
    expect(issues(productSchema(false).safeParse(values))).toEqual({ locationIds: 'required' });
    expect(productSchema(true).safeParse(values).success).toBe(true);
    expect(
      issues(
        productSchema(false).safeParse({ ...values, locationIds: ['2'], color: 'red', price: '' }),
      ),
    ).toEqual({
      color: 'colour',
      price: 'required',
    });
  });

  it('ticks only the caller’s complexes of an edited product', () => {
    const v = productValues(
      {
        id: 1,
        name: 'א',
        nameEn: 'A',
        category: 'popcorn',
        price: 1250,
        icon: '🍿',
        color: '#ffffff',
        sort: 1,
        onSale: true,
        everywhere: false,
        locationIds: [2, 4],
        img: '/api/products/1/image',
      },
      new Set([2, 3]),
    );
    expect(v.locationIds).toEqual(['2']);
    expect(v.price).toBe('12.50');
  });
});
