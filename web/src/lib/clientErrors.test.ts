import { describe, expect, it } from 'vitest';
import { MAX_REPORTS_PER_PAGE, createReporter, type ClientErrorReport } from './clientErrors';
import type { FailedCall } from './api/client';

function setup(page = '/order/12?lang=ru&token=secret', idle = false) {
  const sent: ClientErrorReport[] = [];
  const reporter = createReporter({
    send: (r) => sent.push(r),
    page: () => page,
    lang: () => 'ru',
    idle: { isIdle: () => idle },
  });
  return { sent, reporter };
}

const call = (over: Partial<FailedCall> = {}): FailedCall => ({
  status: 500,
  code: 'serverError',
  message: 'Something broke',
  path: '/api/reservations/AB12?mobileNumber=0521234567',
  requestId: '0123456789abcdef',
  ...over,
});

describe('error reporting', () => {
  it('reports a failed call with its status, code and request id, never a query string', () => {
    const { sent, reporter } = setup();
    reporter.apiError(call());
    expect(sent).toEqual([
      {
        kind: 'api',
        status: 500,
        code: 'serverError',
        message: 'Something broke',
        apiPath: '/api/reservations/AB12',
        requestId: '0123456789abcdef',
        page: '/order/12',
        lang: 'ru',
      },
    ]);
    expect(JSON.stringify(sent)).not.toMatch(/secret|0521234567|token|mobileNumber/);
  });

  it('reports an uncaught error of the page as a script error', () => {
    const { sent, reporter } = setup('/');
    reporter.scriptError(new TypeError('x is undefined'));
    reporter.scriptError('a plain string');
    expect(sent.map((r) => [r.kind, r.code, r.message, r.status])).toEqual([
      ['script', 'TypeError', 'x is undefined', undefined],
      ['script', undefined, 'a plain string', undefined],
    ]);
  });

  it('sends one report per error and page, and at most a few a page load', () => {
    const { sent, reporter } = setup();
    reporter.apiError(call());
    reporter.apiError(call());
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 50; i += 1) reporter.apiError(call({ status: 404, code: `c${i}` }));
    expect(sent).toHaveLength(MAX_REPORTS_PER_PAGE);
  });

  it('is silent about its own failures, expected answers, and a page left idle', () => {
    const { sent, reporter } = setup();
    reporter.apiError(call({ path: '/api/client-errors', status: 429 }));
    reporter.apiError(call({ status: 401, code: 'loginError' }));
    reporter.apiError(call({ status: 0, code: 'connectionLost' }));
    expect(sent).toEqual([]);
    const idle = setup('/', true);
    idle.reporter.apiError(call());
    expect(idle.sent).toEqual([]);
  });
});
