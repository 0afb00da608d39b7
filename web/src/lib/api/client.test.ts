import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  apiGet,
  apiSend,
  fetchPresentationsByDate,
  isConnectionLost,
  onConnectionChange,
  resetRequestState,
  resetUuid,
  retryDelay,
  RETRY_DELAYS_MS,
  setRetrySleep,
} from './client';

const waits: number[] = [];
beforeEach(() => {
  waits.length = 0;
  setRetrySleep(async (ms) => {
    waits.push(ms);
  });
});
afterEach(() => {
  resetUuid();
  resetRequestState();
});

function respond(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('api client', () => {
  it('sends the uuid the server handed out on later calls', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(respond(200, { ok: 1 }, { uuid: 'abc-123' }))
      .mockResolvedValueOnce(respond(200, { ok: 2 }));
    vi.stubGlobal('fetch', fetchMock);

    await apiGet('/config');
    await apiGet('/config');

    const first = fetchMock.mock.calls[0][1] as RequestInit;
    const second = fetchMock.mock.calls[1][1] as RequestInit;
    expect((first.headers as Record<string, string>).uuid).toBeUndefined();
    expect((second.headers as Record<string, string>).uuid).toBe('abc-123');
    expect(second.credentials).toBe('same-origin');
  });

  it('builds query strings under /api', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValue(respond(200, { presentations: [], serverTime: '' }));
    vi.stubGlobal('fetch', fetchMock);
    await fetchPresentationsByDate('2026-07-14');
    expect(fetchMock.mock.calls[0][0]).toBe('/api/seats/presentations?date=2026-07-14');
  });

  it('turns the error shape into an ApiError with status and code', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(respond(404, { error: { code: 'noEvent', message: 'No such event' } })),
    );
    const error = await apiGet('/presentations/9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'noEvent', message: 'No such event' });
  });

  it('keeps the params of an error, and sends bodies as JSON', async () => {
    const fetchMock = vi.fn().mockResolvedValue(
      respond(422, {
        error: { code: 'formValidation', message: 'bad', params: { fields: { email: 'email' } } },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const error = await apiSend('POST', '/cart', { cart: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'formValidation', params: { fields: { email: 'email' } } });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"cart":{}}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('tries a dropped connection again with growing waits, then reports it lost', async () => {
    const fetchMock = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchMock);
    const changes: boolean[] = [];
    const stop = onConnectionChange((lost) => changes.push(lost));
    await expect(apiGet('/config')).rejects.toMatchObject({ status: 0, code: 'connectionLost' });
    expect(fetchMock).toHaveBeenCalledTimes(1 + RETRY_DELAYS_MS.length);
    expect(waits).toEqual([500, 1000, 2000]);
    expect(isConnectionLost()).toBe(true);

    // The next call that gets through says the connection is back.
    fetchMock.mockResolvedValueOnce(respond(200, { ok: 1 }));
    await apiGet('/config');
    expect(changes).toEqual([true, false]);
    stop();
  });

  it('gets through when the connection comes back during the retries', async () => {
    const fetchMock = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(respond(503, { error: { code: 'serviceUnavailable', message: '' } }))
      .mockResolvedValueOnce(respond(200, { ok: 3 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiGet('/config')).resolves.toEqual({ ok: 3 });
    expect(waits).toEqual([500, 1000]);
    expect(isConnectionLost()).toBe(false);
  });

  it('never repeats a POST that may have been done, nor any 4xx or 500', async () => {
    const fetchMock = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiSend('POST', '/payment/commit', {})).rejects.toMatchObject({
      code: 'connectionLost',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(retryDelay('POST', 'network', 0)).toBeNull();
    expect(retryDelay('POST', 504, 0)).toBeNull();
    expect(retryDelay('POST', 503, 0)).toBe(500);
    expect(retryDelay('PUT', 'network', 1)).toBe(1000);
    expect(retryDelay('GET', 500, 0)).toBeNull();
    expect(retryDelay('GET', 409, 0)).toBeNull();
    expect(retryDelay('GET', 502, RETRY_DELAYS_MS.length)).toBeNull();
  });

  it('calls a second captcha refusal recaptcha_repeated', async () => {
    const refused = () => respond(400, { error: { code: 'recaptcha', message: 'no' } });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(refused()).mockResolvedValue(refused()));
    await expect(apiSend('PUT', '/seats/lock-seat', {})).rejects.toMatchObject({
      code: 'recaptcha',
    });
    await expect(apiSend('PUT', '/seats/lock-seat', {})).rejects.toMatchObject({
      code: 'recaptcha_repeated',
    });
  });
});
