// Error reporting (decision 0055): the calls that answered an error and the page's uncaught
// errors go to POST /api/client-errors, which logs them classified (spec section 8). No
// third-party analytics. A report carries the page's path and the failed call's path (the server
// keeps only their route templates), the code, the words and the call's request id: never a
// query string, a body or a form's values.
import { API_BASE, ApiError, onFailedCall, type FailedCall } from './api/client';
import type { IdleWatch } from './idle';

export interface ClientErrorReport {
  kind: 'api' | 'script';
  status?: number;
  code?: string;
  message: string;
  page: string;
  apiPath?: string;
  requestId?: string;
  lang?: string;
}

/** Reports a page load sends at most: a page in a loop must not flood the server. */
export const MAX_REPORTS_PER_PAGE = 20;

const REPORT_PATH = `${API_BASE}/client-errors`;

/** Answers that are expected, not errors: nobody logged in (the customer area reads null). */
function isExpected(call: FailedCall): boolean {
  return call.status === 401 && call.code === 'loginError';
}

const pathOnly = (address: string) => address.split(/[?#]/)[0].slice(0, 500);

export interface Reporter {
  apiError(call: FailedCall): void;
  scriptError(error: unknown): void;
  /** Reports sent so far (tests). */
  sent(): number;
}

/**
 * A reporter that sends through `send`; `page` and `lang` say where the buyer is when an error
 * happens; `idle` stops reports of a page nobody looks at.
 */
export function createReporter(options: {
  send: (report: ClientErrorReport) => void;
  page: () => string;
  lang: () => string;
  idle?: Pick<IdleWatch, 'isIdle'>;
}): Reporter {
  const seen = new Set<string>();
  let count = 0;
  const report = (r: Omit<ClientErrorReport, 'page' | 'lang'>) => {
    if (options.idle?.isIdle()) return;
    const page = pathOnly(options.page());
    const key = `${r.kind}|${r.status ?? ''}|${r.code ?? ''}|${r.apiPath ?? ''}|${page}`;
    if (seen.has(key) || count >= MAX_REPORTS_PER_PAGE) return;
    seen.add(key);
    count += 1;
    options.send({ ...r, message: r.message.slice(0, 1000), page, lang: options.lang() });
  };
  return {
    apiError(call) {
      // Its own failures are not reported (no loop); lost connections never reached the server.
      if (call.path.startsWith(REPORT_PATH) || call.status < 400 || isExpected(call)) return;
      report({
        kind: 'api',
        status: call.status,
        code: /^[A-Za-z0-9_.]{1,64}$/.test(call.code) ? call.code : undefined,
        message: call.message,
        apiPath: pathOnly(call.path),
        requestId: call.requestId ?? undefined,
      });
    },
    scriptError(error) {
      const e = error instanceof Error ? error : null;
      report({
        kind: 'script',
        code: e && /^[A-Za-z0-9_.]{1,64}$/.test(e.name) ? e.name : undefined,
        message: e ? e.message : String(error),
      });
    },
    sent: () => count,
  };
}

/** Sends a report without waiting, and without reporting its own failure. */
export function sendReport(report: ClientErrorReport): void {
  void fetch(REPORT_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(report),
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => undefined);
}

let installed: Reporter | null = null;

/** Reports an error the app caught itself (a route that failed); API errors report themselves. */
export function reportScriptError(error: unknown): void {
  if (error instanceof ApiError) return;
  installed?.scriptError(error);
}

/** Reports every failed call and every uncaught error of this page from now on. */
export function installErrorReporting(lang: () => string, idle: IdleWatch): Reporter {
  const reporter = createReporter({
    send: sendReport,
    page: () => window.location.pathname,
    lang,
    idle,
  });
  onFailedCall((call) => reporter.apiError(call));
  window.addEventListener('error', (event) => reporter.scriptError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => {
    if (!(event.reason instanceof ApiError)) reporter.scriptError(event.reason);
  });
  installed = reporter;
  return reporter;
}
