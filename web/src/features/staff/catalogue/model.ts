// The films' and products' forms of the back office, pure: their values from what the server
// answered, the zod schemas react-hook-form checks with (each message a rule's name, the
// server's: crates/app/src/backoffice/films.rs and products.rs, which judge again), the bodies
// sent, and a formValidation answer's `params.fields` put on the forms' fields.
import { z } from 'zod';
import type { FilmBody, FilmDto, ProductBody, ProductDto } from './api';

export type Rule =
  'required' | 'max' | 'min' | 'date' | 'https' | 'category' | 'location' | 'colour' | 'overlap';

export interface FilmValues {
  name: string;
  nameEn: string;
  synopsis: string;
  synopsisEn: string;
  /** A category id as text. */
  categoryId: string;
  /** Minutes as text. */
  runtime: string;
  classification: string;
  classificationEn: string;
  originalLanguage: string;
  originalLanguageEn: string;
  dubbing: string;
  dubbingEn: string;
  subtitles: string;
  subtitlesEn: string;
  releaseDate: string;
  trailerUrl: string;
}

export type FilmField = keyof FilmValues;

export const FILM_FIELDS = [
  'name',
  'nameEn',
  'synopsis',
  'synopsisEn',
  'categoryId',
  'runtime',
  'classification',
  'classificationEn',
  'originalLanguage',
  'originalLanguageEn',
  'dubbing',
  'dubbingEn',
  'subtitles',
  'subtitlesEn',
  'releaseDate',
  'trailerUrl',
] as const satisfies readonly FilmField[];

export function emptyFilm(firstCategory: number | undefined): FilmValues {
  return {
    name: '',
    nameEn: '',
    synopsis: '',
    synopsisEn: '',
    categoryId: firstCategory === undefined ? '' : String(firstCategory),
    runtime: '',
    classification: '',
    classificationEn: '',
    originalLanguage: '',
    originalLanguageEn: '',
    dubbing: '',
    dubbingEn: '',
    subtitles: '',
    subtitlesEn: '',
    releaseDate: '',
    trailerUrl: '',
  };
}

export function filmValues(f: FilmDto): FilmValues {
  return {
    name: f.name,
    nameEn: f.nameEn,
    synopsis: f.synopsis,
    synopsisEn: f.synopsisEn,
    categoryId: String(f.categoryId),
    runtime: String(f.runtime),
    classification: f.classification,
    classificationEn: f.classificationEn,
    originalLanguage: f.originalLanguage,
    originalLanguageEn: f.originalLanguageEn,
    dubbing: f.dubbing,
    dubbingEn: f.dubbingEn,
    subtitles: f.subtitles,
    subtitlesEn: f.subtitlesEn,
    releaseDate: f.releaseDate,
    trailerUrl: f.trailerUrl,
  };
}

const HTTPS = /^https:\/\/[A-Za-z0-9.:-]+(?:[/?#][^\s"<]*)?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const MAX_RUNTIME_MINUTES = 600;

/** A text field judged by one function: its one broken rule, or null. */
function judged(rule: (v: string) => Rule | null) {
  return z.string().superRefine((v, ctx) => {
    const broken = rule(v.trim());
    if (broken) ctx.addIssue({ code: 'custom', message: broken });
  });
}

function text(max: number, required = false) {
  const base = z.string().trim().max(max, 'max');
  return required ? base.min(1, 'required') : base;
}

/** The film form's schema: the server's rules on what a person types. */
export const filmSchema = z.object({
  name: text(200, true),
  nameEn: text(200, true),
  synopsis: text(2000),
  synopsisEn: text(2000),
  categoryId: z.string().min(1, 'category'),
  runtime: judged((v) => {
    if (v === '') return 'required';
    if (!/^\d+$/.test(v) || Number(v) < 1) return 'min';
    return Number(v) > MAX_RUNTIME_MINUTES ? 'max' : null;
  }),
  classification: text(50),
  classificationEn: text(50),
  originalLanguage: text(50),
  originalLanguageEn: text(50),
  dubbing: text(50),
  dubbingEn: text(50),
  subtitles: text(50),
  subtitlesEn: text(50),
  releaseDate: judged((v) => {
    if (v === '') return 'required';
    return DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? null : 'date';
  }),
  trailerUrl: z
    .string()
    .trim()
    .max(500, 'max')
    .refine((v) => v === '' || HTTPS.test(v), 'https'),
});

export function filmBody(v: FilmValues): FilmBody {
  return {
    name: v.name.trim(),
    nameEn: v.nameEn.trim(),
    synopsis: v.synopsis.trim(),
    synopsisEn: v.synopsisEn.trim(),
    categoryId: Number(v.categoryId),
    runtime: Number(v.runtime),
    classification: v.classification.trim(),
    classificationEn: v.classificationEn.trim(),
    originalLanguage: v.originalLanguage.trim(),
    originalLanguageEn: v.originalLanguageEn.trim(),
    dubbing: v.dubbing.trim(),
    dubbingEn: v.dubbingEn.trim(),
    subtitles: v.subtitles.trim(),
    subtitlesEn: v.subtitlesEn.trim(),
    releaseDate: v.releaseDate.trim(),
    trailerUrl: v.trailerUrl.trim(),
  };
}

export interface ProductValues {
  name: string;
  nameEn: string;
  category: string;
  /** Shekels as typed ("12.50"). */
  price: string;
  icon: string;
  color: string;
  /** Menu order as text. */
  sort: string;
  onSale: boolean;
  everywhere: boolean;
  /** The caller's complexes ticked, ids as text (checkbox values). */
  locationIds: string[];
}

export type ProductField = keyof ProductValues;

export const PRODUCT_CATEGORIES = ['popcorn', 'drinks', 'snacks', 'combo', 'ice-cream'] as const;

export function emptyProduct(): ProductValues {
  return {
    name: '',
    nameEn: '',
    category: 'popcorn',
    price: '',
    icon: '🍿',
    color: '#f6d365',
    sort: '0',
    onSale: true,
    everywhere: false,
    locationIds: [],
  };
}

/** Agorot as shekels for the price field ("12.5" → "12.50"). */
export function shekels(agorot: number): string {
  return (agorot / 100).toFixed(2);
}

/** "12.50" → 1250; null when it is not a sum of money. */
export function agorot(typed: string): number | null {
  const t = typed.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  return Math.round(Number(t) * 100);
}

export function productValues(p: ProductDto, own: ReadonlySet<number>): ProductValues {
  return {
    name: p.name,
    nameEn: p.nameEn,
    category: p.category,
    price: shekels(p.price),
    icon: p.icon,
    color: p.color,
    sort: String(p.sort),
    onSale: p.onSale,
    everywhere: p.everywhere,
    locationIds: p.locationIds.filter((id) => own.has(id)).map(String),
  };
}

/**
 * The product form's schema. `othersSell`: other businesses' complexes sell the product being
 * edited, so ticking none of the caller's complexes still leaves it on a menu.
 */
export function productSchema(othersSell: boolean) {
  return z
    .object({
      name: text(100, true),
      nameEn: text(100, true),
      category: text(40, true),
      price: judged((v) => {
        if (v === '') return 'required';
        const sum = agorot(v);
        if (sum === null) return 'min';
        return sum > 1_000_000 ? 'max' : null;
      }),
      icon: z.string().trim().max(8, 'max'),
      color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'colour'),
      sort: z
        .string()
        .trim()
        .regex(/^\d{1,6}$/, 'min'),
      onSale: z.boolean(),
      everywhere: z.boolean(),
      locationIds: z.array(z.string()),
    })
    .superRefine((v, ctx) => {
      if (!v.everywhere && v.locationIds.length === 0 && !othersSell) {
        ctx.addIssue({ code: 'custom', path: ['locationIds'], message: 'required' });
      }
    });
}

export function productBody(v: ProductValues): ProductBody {
  return {
    name: v.name.trim(),
    nameEn: v.nameEn.trim(),
    category: v.category.trim(),
    price: agorot(v.price) ?? -1,
    icon: v.icon.trim(),
    color: v.color,
    sort: Number(v.sort),
    onSale: v.onSale,
    everywhere: v.everywhere,
    locationIds: v.everywhere ? [] : v.locationIds.map(Number),
  };
}

/** A formValidation answer's `params.fields` (field → rule), on the fields a form has. */
export function serverFieldErrors<F extends string>(
  params: Record<string, unknown> | undefined,
  fields: readonly F[],
): Partial<Record<F, Rule>> {
  const given = params?.fields;
  if (!given || typeof given !== 'object') return {};
  const out: Partial<Record<F, Rule>> = {};
  for (const [name, rule] of Object.entries(given as Record<string, unknown>)) {
    if ((fields as readonly string[]).includes(name) && typeof rule === 'string') {
      out[name as F] = rule as Rule;
    }
  }
  return out;
}

/** What an upload can be refused for (crates/app/src/backoffice/posters.rs `poster_rule`). */
export type PosterRule = 'imageType' | 'image' | 'imageSize' | 'max';
const POSTER_RULES: readonly PosterRule[] = ['imageType', 'image', 'imageSize', 'max'];

/** A poster's or a product picture's file the server will take: its type, and its size (5 MB). */
export const MAX_POSTER_BYTES = 5 * 1024 * 1024;
export function posterProblem(file: { type: string; size: number }): PosterRule | null {
  if (file.type !== 'image/jpeg' && file.type !== 'image/png') return 'imageType';
  if (file.size > MAX_POSTER_BYTES) return 'max';
  return null;
}

/**
 * Why the server refused an upload: `params.fields.<field>` (a film's `poster`, a product's
 * `image`), or 413 (over 5 MB).
 */
export function posterRefusal(
  code: string,
  params: Record<string, unknown> | undefined,
  field: 'poster' | 'image' = 'poster',
) {
  if (code === 'payloadTooLarge') return 'max';
  const rule = (params?.fields as Record<string, unknown> | undefined)?.[field];
  return POSTER_RULES.find((r) => r === rule) ?? null;
}
