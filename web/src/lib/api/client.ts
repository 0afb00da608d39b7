// Every call to the kupa API goes through this file.
import type {
  FeaturesResponse,
  PresentationResponse,
  PresentationsByDateResponse,
  SiteConfig,
  UpcomingPresentationsResponse,
} from './types';
import { channelOf } from './orderChannel';

export const API_BASE = '/api';

/** An error answered by the server in its `{ error: { code, message } }` shape (or a transport failure). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Values the message needs, e.g. `{fields: {...}}` of a formValidation, `{missing: 1}`. */
  readonly params: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, params?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

/** What a failed call tells the error reporting (lib/clientErrors.ts): never its query or body. */
export interface FailedCall {
  status: number;
  code: string;
  message: string;
  path: string;
  requestId: string | null;
}

let failedCallListener: ((call: FailedCall) => void) | null = null;

/** Who hears of every call that ended in an error answer (one at a time; null to stop). */
export function onFailedCall(listener: ((call: FailedCall) => void) | null): void {
  failedCallListener = listener;
}

const UUID_COOKIE = 'kupa_uuid';
let knownUuid: string | null = null;

function readUuidCookie(): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === UUID_COOKIE && rest.length > 0) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The visitor id the server handed out, sent back as the `uuid` header on every request. */
export function currentUuid(): string | null {
  return knownUuid ?? readUuidCookie();
}

/** For tests: forget the remembered visitor id. */
export function resetUuid(): void {
  knownUuid = null;
}

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    search.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const qs = search.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * A Retry-After header in whole seconds (it may be a number of seconds or an HTTP date), or null
 * when there is none or it cannot be read.
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

async function errorFrom(response: Response): Promise<ApiError> {
  let code = `http${response.status}`;
  let message = response.statusText || `HTTP ${response.status}`;
  let params: Record<string, unknown> | undefined;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'error' in body) {
      const error = (body as { error: unknown }).error;
      if (error && typeof error === 'object') {
        const e = error as { code?: unknown; message?: unknown; params?: unknown };
        if (typeof e.code === 'string') code = e.code;
        if (typeof e.message === 'string') message = e.message;
        if (e.params && typeof e.params === 'object') params = e.params as Record<string, unknown>;
      }
    }
  } catch {
    // Not JSON: keep the status line.
  }
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  if (retryAfter !== null && params?.retryAfterSeconds === undefined) {
    params = { ...params, retryAfterSeconds: retryAfter };
  }
  return new ApiError(response.status, code, message, params);
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How a try failed: no answer at all, or an answer with this HTTP status. */
export type Failure = 'network' | number;

/** Waits before each retry of a lost connection: 0.5 s, 1 s, 2 s, then the buyer is told. */
export const RETRY_DELAYS_MS = [500, 1000, 2000] as const;

/**
 * Whether to try a failed call again, and after how long (null: give up). Only failures that
 * say nothing about the request are retried: no answer at all, or a gateway's 502/504 and our
 * 503 (the database was unreachable). A POST with no answer may have been done (a commit, a
 * cart), so it is retried only on 502 and 503, which mean the server did not act on it.
 */
export function retryDelay(method: Method, failure: Failure, attempt: number): number | null {
  if (attempt >= RETRY_DELAYS_MS.length) return null;
  const transient =
    method === 'POST'
      ? failure === 502 || failure === 503
      : failure === 'network' || failure === 502 || failure === 503 || failure === 504;
  return transient ? RETRY_DELAYS_MS[attempt] : null;
}

type ConnectionListener = (lost: boolean) => void;
const connectionListeners = new Set<ConnectionListener>();
let connectionLost = false;

function setConnectionLost(lost: boolean) {
  if (lost === connectionLost) return;
  connectionLost = lost;
  for (const listener of connectionListeners) listener(lost);
}

/** Tells `listener` when calls stop getting through after their retries, and when one does again. */
export function onConnectionChange(listener: ConnectionListener): () => void {
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}

export function isConnectionLost(): boolean {
  return connectionLost;
}

let sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    });
  });

/** For tests: wait differently between retries (e.g. not at all). */
export function setRetrySleep(next: typeof sleep): void {
  sleep = next;
}

/**
 * The captcha was refused once already in this page: a second refusal is `recaptcha_repeated`
 * (spec 8: refresh the page or use another browser), since asking again will not help.
 */
let captchaRefused = false;

/** For tests: forget an earlier captcha refusal and a lost connection. */
export function resetRequestState(): void {
  captchaRefused = false;
  connectionLost = false;
}

/**
 * Every call goes through here: the session's uuid header, our error shape, retries. Answers the
 * successful response (or, for a call sent with `ifNoneMatch`, a 304 too), its body unread.
 */
async function send(
  method: Method,
  path: string,
  options: {
    query?: Record<string, QueryValue>;
    body?: unknown;
    /** A file sent as it is, under its own type (an image upload), instead of a JSON body. */
    file?: Blob;
    signal?: AbortSignal;
    ifNoneMatch?: string;
  },
): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.file) headers['Content-Type'] = options.file.type || 'application/octet-stream';
    // A request that sets If-None-Match itself bypasses the browser's cache (fetch spec), so a
    // 304 reaches this code as it is.
    if (options.ifNoneMatch) headers['If-None-Match'] = options.ifNoneMatch;
    const uuid = currentUuid();
    if (uuid) headers.uuid = uuid;

    let response: Response;
    try {
      response = await fetch(buildUrl(path, options.query), {
        method,
        headers,
        body:
          options.file ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        credentials: 'same-origin',
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      const delay = retryDelay(method, 'network', attempt);
      if (delay !== null) {
        await sleep(delay, options.signal);
        continue;
      }
      setConnectionLost(true);
      throw new ApiError(
        0,
        'connectionLost',
        cause instanceof Error ? cause.message : 'Network error',
      );
    }

    const issued = response.headers.get('uuid');
    if (issued) knownUuid = issued;

    if (response.status === 304 && options.ifNoneMatch) {
      setConnectionLost(false);
      return response;
    }
    if (!response.ok) {
      const delay = retryDelay(method, response.status, attempt);
      if (delay !== null) {
        await sleep(delay, options.signal);
        continue;
      }
      const error = await errorFrom(response);
      failedCallListener?.({
        status: error.status,
        code: error.code,
        message: error.message,
        path: `${API_BASE}${path}`,
        requestId: response.headers.get('x-request-id'),
      });
      if ([502, 503, 504].includes(response.status)) {
        setConnectionLost(true);
        throw new ApiError(error.status, 'connectionLost', error.message, error.params);
      }
      setConnectionLost(false);
      if (error.code === 'recaptcha') {
        if (captchaRefused) {
          throw new ApiError(error.status, 'recaptcha_repeated', error.message, error.params);
        }
        captchaRefused = true;
      }
      throw error;
    }
    setConnectionLost(false);
    return response;
  }
}

async function request<T>(
  method: Method,
  path: string,
  options: {
    query?: Record<string, QueryValue>;
    body?: unknown;
    file?: Blob;
    signal?: AbortSignal;
  },
): Promise<T> {
  return (await (await send(method, path, options)).json()) as T;
}

/** A conditional GET's outcome: unchanged since the tag sent (304), or a new body and its tag. */
export type Revalidated<T> =
  { notModified: true } | { notModified: false; data: T; etag: string | null };

/**
 * A GET that sends `etag` (when there is one) as `If-None-Match`: a 304 answers
 * `{notModified: true}`, anything else as `apiGet` does, with the answer's `ETag`.
 */
export async function apiGetRevalidated<T>(
  path: string,
  query: Record<string, QueryValue> | undefined,
  etag: string | null | undefined,
  signal?: AbortSignal,
): Promise<Revalidated<T>> {
  const response = await send('GET', path, { query, signal, ifNoneMatch: etag ?? undefined });
  if (response.status === 304) return { notModified: true };
  return {
    notModified: false,
    data: (await response.json()) as T,
    etag: response.headers.get('etag'),
  };
}

export function apiGet<T>(
  path: string,
  query?: Record<string, QueryValue>,
  signal?: AbortSignal,
): Promise<T> {
  return request<T>('GET', path, { query, signal });
}

export function fetchConfig(signal?: AbortSignal): Promise<SiteConfig> {
  return apiGet<SiteConfig>('/config', undefined, signal);
}

/** Presentations on one calendar day (YYYY-MM-DD in Asia/Jerusalem). */
export function fetchPresentationsByDate(
  date: string,
  signal?: AbortSignal,
): Promise<PresentationsByDateResponse> {
  return apiGet<PresentationsByDateResponse>('/seats/presentations', { date }, signal);
}

export function fetchUpcomingPresentations(
  filter: { featureIds?: readonly number[]; locationId?: number },
  signal?: AbortSignal,
): Promise<UpcomingPresentationsResponse> {
  return apiGet<UpcomingPresentationsResponse>('/presentations/', filter, signal);
}

export function fetchPresentation(id: number, signal?: AbortSignal): Promise<PresentationResponse> {
  return apiGet<PresentationResponse>(
    `/presentations/${encodeURIComponent(id)}`,
    channelOf(id),
    signal,
  );
}

export function fetchFeatures(
  filter: { featureIds?: readonly number[]; locationId?: number },
  signal?: AbortSignal,
): Promise<FeaturesResponse> {
  return apiGet<FeaturesResponse>('/features/', filter, signal);
}

/**
 * The feature's poster: its own image, or the generated one titled in `lang` (the Hebrew one
 * carries the English title too, an English one no Hebrew).
 */
export function featurePosterUrl(
  p: { featureId: number; featureImageUrl?: string | null },
  lang = 'he',
): string {
  const generated = `${API_BASE}/features/${encodeURIComponent(p.featureId)}/placeholderImage`;
  const url = p.featureImageUrl || generated;
  return url === generated && lang !== 'he' ? `${url}?lang=${encodeURIComponent(lang)}` : url;
}

/** A file sent as the body of a PUT (an image upload), under its own Content-Type. */
export function apiPutFile<T>(path: string, file: Blob): Promise<T> {
  return request<T>('PUT', path, { file });
}

/** A call with a JSON body (POST, PUT, DELETE), with the same uuid header and error shape as apiGet. */
export function apiSend<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  query?: Record<string, QueryValue>,
  signal?: AbortSignal,
): Promise<T> {
  return request<T>(method, path, { query, body, signal });
}
