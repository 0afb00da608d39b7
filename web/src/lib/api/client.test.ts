import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet, apiSend, fetchPresentationsByDate, resetUuid } from './client';

afterEach(() => resetUuid());

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

  it('reports a dropped connection as errorNoResponse', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiGet('/config')).rejects.toMatchObject({ status: 0, code: 'errorNoResponse' });
  });
});
