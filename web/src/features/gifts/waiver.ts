// The waiver step's state (decision 0041): the children who will use a children's voucher, the
// signer's name and the signature drawn on the canvas, as one reducer over its actions. Pure: the
// page posts it, the server judges it (the ages too: a child outside them is the server's
// `formValidation` with `params.reason` "waiverAge"). Kept in memory only, never in the address
// or storage: it is personal data.
import { ApiError } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

export type CartWaiver = components['schemas']['CartWaiverIn'];

/** At most this many children on one waiver (the server's limit). */
export const MAX_CHILDREN = 10;
/** The longest signature the server takes, as a data URL. */
export const MAX_SIGNATURE_CHARS = 48_000;

export interface WaiverChildState {
  /** A key for the list; never sent. */
  key: number;
  name: string;
  birthDate: string;
}

export interface WaiverState {
  children: WaiverChildState[];
  signerName: string;
  /** The signature as a PNG data URL; null until drawn (and after "clear"). */
  signature: string | null;
  nextKey: number;
}

export type WaiverAction =
  | { type: 'addChild' }
  | { type: 'removeChild'; key: number }
  | { type: 'child'; key: number; field: 'name' | 'birthDate'; value: string }
  | { type: 'signerName'; value: string }
  | { type: 'signature'; value: string | null };

export function initialWaiver(): WaiverState {
  return {
    children: [{ key: 0, name: '', birthDate: '' }],
    signerName: '',
    signature: null,
    nextKey: 1,
  };
}

export function waiverReducer(state: WaiverState, action: WaiverAction): WaiverState {
  switch (action.type) {
    case 'addChild':
      if (state.children.length >= MAX_CHILDREN) return state;
      return {
        ...state,
        children: [...state.children, { key: state.nextKey, name: '', birthDate: '' }],
        nextKey: state.nextKey + 1,
      };
    case 'removeChild':
      if (state.children.length <= 1) return state;
      return { ...state, children: state.children.filter((c) => c.key !== action.key) };
    case 'child':
      return {
        ...state,
        children: state.children.map((c) =>
          c.key === action.key ? { ...c, [action.field]: action.value } : c,
        ),
      };
    case 'signerName':
      return { ...state, signerName: action.value };
    case 'signature':
      return { ...state, signature: action.value };
  }
}

/** A problem with one field, by the server's field names (`waiver.children[1].birthDate`). */
export type WaiverErrors = Record<string, WaiverProblem>;

export type WaiverProblem =
  | { kind: 'required' | 'date' | 'future' | 'tooLarge' | 'invalid' }
  | { kind: 'age'; child: string; age: number; minAge: number; maxAge: number };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What the form checks before posting: everything filled, dates that are dates and not ahead. */
export function formProblems(state: WaiverState, today: string): WaiverErrors {
  const errors: WaiverErrors = {};
  state.children.forEach((c, i) => {
    if (!c.name.trim()) errors[`waiver.children[${i}].name`] = { kind: 'required' };
    const field = `waiver.children[${i}].birthDate`;
    if (!c.birthDate) errors[field] = { kind: 'required' };
    else if (!DAY.test(c.birthDate) || Number.isNaN(Date.parse(c.birthDate)))
      errors[field] = { kind: 'date' };
    else if (c.birthDate > today) errors[field] = { kind: 'future' };
  });
  if (!state.signerName.trim()) errors['waiver.signerName'] = { kind: 'required' };
  if (!state.signature) errors['waiver.signature'] = { kind: 'required' };
  else if (state.signature.length > MAX_SIGNATURE_CHARS)
    errors['waiver.signature'] = { kind: 'tooLarge' };
  return errors;
}

/** The cart's `waiver`. */
export function toCartWaiver(state: WaiverState): CartWaiver {
  return {
    children: state.children.map((c) => ({ name: c.name.trim(), birthDate: c.birthDate })),
    signature: state.signature ?? '',
    signerName: state.signerName.trim(),
  };
}

/** The server's refusal of a waiver as field problems; empty when it was about something else. */
export function serverProblems(error: unknown): WaiverErrors {
  if (!(error instanceof ApiError) || error.code !== 'formValidation') return {};
  const p = (error.params ?? {}) as Record<string, unknown>;
  const fields = Array.isArray(p.fields)
    ? p.fields.filter((f): f is string => typeof f === 'string' && f.startsWith('waiver'))
    : [];
  const out: WaiverErrors = {};
  for (const field of fields) {
    if (p.reason === 'waiverAge') {
      out[field] = {
        kind: 'age',
        child: String(p.child ?? ''),
        age: Number(p.age),
        minAge: Number(p.minAge),
        maxAge: Number(p.maxAge),
      };
    } else {
      out[field] = { kind: field === 'waiver.children' ? 'required' : 'invalid' };
    }
  }
  return out;
}
