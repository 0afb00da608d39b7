import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Captcha } from '../../../../lib/captcha';
import { localizedName } from '../../../../lib/localized';
import { useTicketByCode } from '../../api/tickets';
import { orderErrorMessage } from '../../model/cartErrors';
import { appliedCodes, applyCode, removeCode, type TicketLine } from '../../model/ticketLines';

const CODE_KINDS = ['bankCard', 'creditCardBenefit', 'discountCode'] as const;
type CodeKind = (typeof CODE_KINDS)[number] | 'other';

/** Step 2 of the ticket order: a ticket for each held seat, vouchers and codes. */
/** The voucher-or-code sub-menu: three default kinds and free text. */
export function CodeMenu({
  presentationId,
  lines,
  captcha,
  onApplied,
  disabled,
}: {
  presentationId: number;
  lines: TicketLine[];
  captcha: Captcha;
  onApplied: (lines: TicketLine[]) => void;
  disabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<CodeKind>('other');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const lookup = useTicketByCode(presentationId, captcha);
  const busy = lookup.isPending;
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const panelId = useId();
  const codes = appliedCodes(lines);

  const choose = (next: CodeKind) => {
    setKind(next);
    setError(null);
    input.current?.focus();
  };

  const apply = () => {
    const typed = code.trim();
    if (typed === '') return;
    setError(null);
    setStatus(null);
    // One lookup per ticket group that still has seats without a code; the first match wins.
    const targets = new Map<number, number>();
    for (const l of lines)
      if (!l.code && !targets.has(l.ticketGroupId)) targets.set(l.ticketGroupId, l.seat.sectionId);
    if (targets.size === 0) {
      setError(t('validation.couponNoTickets'));
      return;
    }
    lookup.mutate(
      { code: typed, targets },
      {
        onSuccess: (answer) => {
          const next = applyCode(lines, {
            code: answer.ticket.code ?? answer.ticketCode.code,
            ticket: answer.ticket,
            label: answer.msg,
            labelEn: answer.msgEn,
          });
          if (!next) {
            setError(t('validation.couponNoTickets'));
            return;
          }
          onApplied(next);
          setCode('');
          setStatus(
            t('order.tickets.codeApplied', {
              code: answer.ticketCode.code,
              label: localizedName(lang, answer.msg, answer.msgEn),
            }),
          );
        },
        onError: (error) => setError(orderErrorMessage(t, error)),
      },
    );
  };

  const label =
    kind === 'other' ? t('order.tickets.codes.otherLabel') : t(`order.tickets.codes.${kind}Label`);

  return (
    <div className="tickets-step__panel tickets-step__codes">
      <button
        type="button"
        className="tickets-step__disclosure"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {t('order.tickets.codes.title')}
      </button>
      <div id={panelId} hidden={!open}>
        <div
          className="tickets-step__kinds"
          role="group"
          aria-label={t('order.tickets.codes.kinds')}
        >
          {CODE_KINDS.map((k) => (
            <button
              key={k}
              type="button"
              className={`tickets-step__kind${kind === k ? ' tickets-step__kind--on' : ''}`}
              aria-pressed={kind === k}
              onClick={() => choose(kind === k ? 'other' : k)}
            >
              {t(`order.tickets.codes.${k}`)}
            </button>
          ))}
        </div>
        <form
          className="tickets-step__code-form"
          onSubmit={(e) => {
            e.preventDefault();
            apply();
          }}
        >
          <label htmlFor={inputId}>{label}</label>
          <div className="tickets-step__inline">
            <input
              ref={input}
              id={inputId}
              type="text"
              dir="ltr"
              autoComplete="off"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <button
              type="submit"
              className="button button--ghost"
              disabled={busy || disabled || code.trim() === ''}
            >
              {t('order.tickets.codes.apply')}
            </button>
          </div>
        </form>
        {error && (
          <p className="tickets-step__field-error" role="alert">
            {error}
          </p>
        )}
        {status && !error && (
          <p className="tickets-step__muted" role="status">
            {status}
          </p>
        )}
      </div>
      {codes.length > 0 && (
        <ul className="tickets-step__applied">
          {codes.map((c) => (
            <li key={c.code} className="tickets-step__applied-item">
              <span dir="ltr" className="tickets-step__applied-code">
                {c.code}
              </span>
              <span className="tickets-step__muted">{localizedName(lang, c.label, c.labelEn)}</span>
              <button
                type="button"
                className="button button--ghost tickets-step__applied-remove"
                onClick={() => {
                  onApplied(removeCode(lines, c.code));
                  setStatus(null);
                }}
                aria-label={t('order.tickets.codes.remove', { code: c.code })}
              >
                {t('order.tickets.codes.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
