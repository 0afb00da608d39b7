import type { APIRequestContext } from '@playwright/test';

interface Outbox {
  messages: { kind: string; body: string; createdAt: string }[];
}

/**
 * The 6-digit code of the newest login-code SMS to `to` in the test-mode outbox (newest first).
 * Only the login code's kind counts: an order's tickets SMS to the same number can land after it
 * (it is sent when the payment is finalised, which may finish later), and carries digits too.
 * `since` (an ISO time, taken before the code was asked for) refuses a code sent before it: without
 * it an earlier spec's code to the same number would do. The outbox is read again for up to ten
 * seconds until such a code is there.
 */
export async function smsLoginCode(
  request: APIRequestContext,
  to: string,
  since?: string,
): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const box = (await (
      await request.get(`/api/test/outbox/sms?to=${encodeURIComponent(to)}&limit=20`)
    ).json()) as Outbox;
    const sms = box.messages.find(
      (m) => m.kind === 'loginCode' && (!since || m.createdAt >= since.slice(0, 19)),
    );
    if (sms) {
      const code = sms.body.match(/\d{6}/)?.[0];
      if (!code) throw new Error(`no code in the SMS to ${to}`);
      return code;
    }
    if (Date.now() > deadline)
      throw new Error(`no login code to ${to}${since ? ` since ${since}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The path and query of the link in the newest mail of this kind to the address. */
export async function mailedLink(
  request: APIRequestContext,
  to: string,
  kind: string,
): Promise<string> {
  const box = (await (
    await request.get(`/api/test/outbox/mail?to=${encodeURIComponent(to)}&limit=5`)
  ).json()) as { messages: { kind: string; text?: string }[] };
  const mail = box.messages.find((m) => m.kind === kind);
  const url = mail?.text?.match(/https?:\/\/\S+token=[0-9a-f]{64}/)?.[0];
  if (!url) throw new Error(`no ${kind} link to ${to}`);
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
