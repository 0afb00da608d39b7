// The prices panel of the programme (issue 18 item 2, decision 0070): a business's tickets, group
// by group, with the catalogue's price, today's and the changes scheduled from a day on; and its
// service charge likewise. A manager schedules a change from today or a later day (the business's
// screenings of that day on sell at it; orders already priced keep their price) or withdraws one
// not yet past. Every server follows within a second; each change is in the audit.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import { formatLongDate, formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import {
  priceListQuery,
  programmeKeys,
  scheduleServiceCharge,
  scheduleTicketPrice,
  withdrawPriceChange,
  type Complex,
  type PriceChange,
  type PriceList,
  type ServiceChargeRule,
} from './api';
import { LabelledSelect } from './LabelledSelect';
import { changesOf, chargeParts, parsePercent, parseShekels } from './pricesModel';
import { NameOptions } from '../NameOptions';

export function PricesPanel({ complexes }: { complexes: readonly Complex[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const businesses = [...new Set(complexes.map((c) => c.businessId))];
  const [business, setBusiness] = useState(businesses[0] ?? 0);
  const list = useQuery({ ...priceListQuery(business), enabled: businesses.length > 0 });
  const businessName = (b: number) =>
    complexes
      .filter((c) => c.businessId === b)
      .map((c) => localizedName(lang, c.name, c.nameEn))
      .join(', ');

  return (
    <section className="prices" aria-labelledby="prices-title">
      <h3 id="prices-title" className="prices__title">
        {t('staffProgramme.prices.title')}
      </h3>
      <p className="programme-form__hint">{t('staffProgramme.prices.intro')}</p>
      {businesses.length > 1 && (
        <LabelledSelect
          className="programme__field"
          label={t('staffProgramme.prices.business')}
          value={business}
          onChange={(e) => setBusiness(Number(e.target.value))}
        >
          {businesses.map((b) => (
            <option key={b} value={b}>
              {businessName(b)}
            </option>
          ))}
        </LabelledSelect>
      )}
      {list.isPending && <Loading block />}
      {list.error && <Notice tone="error" title={errorMessage(t, list.error)} />}
      {list.data && <TicketPrices list={list.data} />}
      {list.data && <ServiceCharges list={list.data} />}
    </section>
  );
}

function useChanged(businessId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: programmeKeys.prices(businessId) });
    void queryClient.invalidateQueries({ queryKey: ['staff', 'audit'] });
  };
}

/** A scheduled change's line: its day, what it sets, and its withdrawal. */
function ChangeLine({ change, what }: { change: PriceChange; what: string }) {
  const { t, i18n } = useTranslation();
  const changed = useChanged(change.businessId);
  const withdraw = useMutation({
    mutationFn: () => withdrawPriceChange(change),
    onSuccess: changed,
  });
  const from = formatLongDate(change.effectiveFrom, i18n.language);
  return (
    <li className="prices__change">
      <span>{t('staffProgramme.prices.from', { date: from, what })}</span>
      <button
        type="button"
        className="staff-button staff-button--quiet staff-button--danger-text"
        disabled={withdraw.isPending}
        aria-label={t('staffProgramme.prices.withdrawLabel', { date: from, what })}
        onClick={() => withdraw.mutate()}
      >
        {t('staffProgramme.prices.withdraw')}
      </button>
      {withdraw.isError && (
        <span className="programme-error" role="alert">
          {errorMessage(t, withdraw.error)}
        </span>
      )}
    </li>
  );
}

/** The changes scheduled for a price, each with its withdrawal; a dash when there are none. */
function Scheduled({
  changes,
  what,
}: {
  changes: readonly PriceChange[];
  what: (change: PriceChange) => string;
}) {
  if (changes.length === 0) return '—';
  return (
    <ul className="prices__changes">
      {changes.map((c) => (
        <ChangeLine key={c.id} change={c} what={what(c)} />
      ))}
    </ul>
  );
}

/** The day a change applies from: today or later. */
function EffectiveFrom({
  today,
  value,
  onChange,
}: {
  today: string;
  value: string;
  onChange: (day: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <label>
      {t('staffProgramme.prices.effectiveFrom')}
      <input
        type="date"
        required
        min={today}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/** What came of scheduling a change: the form's own refusal, the server's, or done. */
function Outcome({
  invalid,
  schedule,
}: {
  invalid: string | null;
  schedule: { isError: boolean; error: unknown; isSuccess: boolean };
}) {
  const { t } = useTranslation();
  return (
    <>
      {invalid && (
        <p className="programme-error" role="alert">
          {invalid}
        </p>
      )}
      {schedule.isError && (
        <p className="programme-error" role="alert">
          {errorMessage(t, schedule.error)}
        </p>
      )}
      {schedule.isSuccess && (
        <p className="programme-done" role="status">
          {t('staffProgramme.prices.scheduledDone')}
        </p>
      )}
    </>
  );
}

function TicketPrices({ list }: { list: PriceList }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const groups = list.ticketGroups.filter((g) => g.tickets.length > 0);
  const [groupId, setGroupId] = useState(groups[0]?.id ?? 0);
  const group = groups.find((g) => g.id === groupId) ?? groups[0];
  const [ticketId, setTicketId] = useState(0);
  const [from, setFrom] = useState(list.today);
  const [price, setPrice] = useState('');
  const [invalid, setInvalid] = useState(false);
  const changed = useChanged(list.businessId);
  const schedule = useMutation({
    mutationFn: scheduleTicketPrice,
    onSuccess: () => {
      setPrice('');
      changed();
    },
  });
  if (!group) return null;
  const ticket = group.tickets.find((x) => x.id === ticketId) ?? group.tickets[0];
  const money = (a: number) => formatMoney(a, lang);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const agorot = parseShekels(price);
    setInvalid(agorot === null);
    if (agorot === null) return;
    schedule.mutate({
      businessId: list.businessId,
      ticketId: ticket.id,
      effectiveFrom: from,
      price: agorot,
    });
  };

  return (
    <div className="prices__part">
      <h4 className="prices__subtitle">{t('staffProgramme.prices.tickets')}</h4>
      <LabelledSelect
        className="programme__field"
        label={t('staffProgramme.prices.group')}
        value={group.id}
        onChange={(e) => setGroupId(Number(e.target.value))}
      >
        <NameOptions items={groups} />
      </LabelledSelect>
      <div className="prices__scroll" tabIndex={0} role="region" aria-labelledby="prices-table">
        <table className="prices__table">
          <caption id="prices-table">{localizedName(lang, group.name, group.nameEn)}</caption>
          <thead>
            <tr>
              <th scope="col">{t('staffProgramme.prices.ticket')}</th>
              <th scope="col">{t('staffProgramme.prices.catalogue')}</th>
              <th scope="col">{t('staffProgramme.prices.today')}</th>
              <th scope="col">{t('staffProgramme.prices.scheduled')}</th>
            </tr>
          </thead>
          <tbody>
            {group.tickets.map((x) => {
              const changes = changesOf(list.ticketChanges, x.id);
              return (
                <tr key={x.id}>
                  <th scope="row">{localizedName(lang, x.name, x.nameEn)}</th>
                  <td>{money(x.price)}</td>
                  <td className={x.priceToday === x.price ? undefined : 'prices__differs'}>
                    {money(x.priceToday)}
                  </td>
                  <td>
                    <Scheduled changes={changes} what={(c) => money(c.price ?? 0)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <form className="prices__form" onSubmit={submit}>
        <fieldset>
          <legend>{t('staffProgramme.prices.scheduleTicket')}</legend>
          <LabelledSelect
            className="prices__field"
            label={t('staffProgramme.prices.ticket')}
            value={ticket.id}
            onChange={(e) => setTicketId(Number(e.target.value))}
          >
            <NameOptions items={group.tickets} />
          </LabelledSelect>
          <EffectiveFrom today={list.today} value={from} onChange={setFrom} />
          <label>
            {t('staffProgramme.prices.newPrice')}
            <input
              inputMode="decimal"
              required
              value={price}
              aria-invalid={invalid}
              onChange={(e) => setPrice(e.target.value)}
            />
          </label>
          <button type="submit" className="staff-button" disabled={schedule.isPending}>
            {t('staffProgramme.prices.submit')}
          </button>
        </fieldset>
        <Outcome
          invalid={invalid ? t('staffProgramme.prices.badPrice') : null}
          schedule={schedule}
        />
      </form>
    </div>
  );
}

function ServiceCharges({ list }: { list: PriceList }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const money = (a: number) => formatMoney(a, lang);
  const [from, setFrom] = useState(list.today);
  const [kind, setKind] = useState<'amount' | 'percent'>('amount');
  const [value, setValue] = useState('');
  const [perTicket, setPerTicket] = useState(true);
  const [invalid, setInvalid] = useState(false);
  const changed = useChanged(list.businessId);
  const schedule = useMutation({
    mutationFn: scheduleServiceCharge,
    onSuccess: () => {
      setValue('');
      changed();
    },
  });
  const say = (rule: ServiceChargeRule | null | undefined) => {
    if (!rule) return t('staffProgramme.prices.noCharge');
    const p = chargeParts(rule, money);
    return t(p.perTicket ? 'staffProgramme.prices.perTicket' : 'staffProgramme.prices.perOrder', {
      value: p.value,
    });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = kind === 'amount' ? parseShekels(value) : parsePercent(value);
    setInvalid(n === null);
    if (n === null) return;
    schedule.mutate({
      businessId: list.businessId,
      effectiveFrom: from,
      ...(kind === 'amount' ? { amount: n } : { percentBp: n }),
      perTicket,
    });
  };

  return (
    <div className="prices__part">
      <h4 className="prices__subtitle">{t('staffProgramme.prices.serviceCharge')}</h4>
      <dl className="programme-facts">
        <div>
          <dt>{t('staffProgramme.prices.catalogue')}</dt>
          <dd>{say(list.serviceCharge)}</dd>
        </div>
        <div>
          <dt>{t('staffProgramme.prices.today')}</dt>
          <dd>{say(list.serviceChargeToday)}</dd>
        </div>
        <div>
          <dt>{t('staffProgramme.prices.scheduled')}</dt>
          <dd>
            <Scheduled changes={list.serviceChargeChanges} what={(c) => say(c.serviceCharge)} />
          </dd>
        </div>
      </dl>
      <form className="prices__form" onSubmit={submit}>
        <fieldset>
          <legend>{t('staffProgramme.prices.scheduleCharge')}</legend>
          <EffectiveFrom today={list.today} value={from} onChange={setFrom} />
          <LabelledSelect
            className="prices__field"
            label={t('staffProgramme.prices.kind')}
            value={kind}
            onChange={(e) => setKind(e.target.value === 'percent' ? 'percent' : 'amount')}
          >
            <option value="amount">{t('staffProgramme.prices.kindAmount')}</option>
            <option value="percent">{t('staffProgramme.prices.kindPercent')}</option>
          </LabelledSelect>
          <label>
            {kind === 'amount'
              ? t('staffProgramme.prices.amount')
              : t('staffProgramme.prices.percent')}
            <input
              inputMode="decimal"
              required
              value={value}
              aria-invalid={invalid}
              onChange={(e) => setValue(e.target.value)}
            />
          </label>
          <LabelledSelect
            className="prices__field"
            label={t('staffProgramme.prices.charged')}
            value={perTicket ? 'ticket' : 'order'}
            onChange={(e) => setPerTicket(e.target.value === 'ticket')}
          >
            <option value="ticket">{t('staffProgramme.prices.chargedPerTicket')}</option>
            <option value="order">{t('staffProgramme.prices.chargedPerOrder')}</option>
          </LabelledSelect>
          <button type="submit" className="staff-button" disabled={schedule.isPending}>
            {t('staffProgramme.prices.submit')}
          </button>
        </fieldset>
        <Outcome
          invalid={
            !invalid
              ? null
              : kind === 'amount'
                ? t('staffProgramme.prices.badPrice')
                : t('staffProgramme.prices.badPercent')
          }
          schedule={schedule}
        />
      </form>
    </div>
  );
}
