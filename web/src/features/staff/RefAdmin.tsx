// The ticket-reference prompt admin (managers and ticket-reference agents): each option's
// quantity left, what the businesses' tickets used, and the quantity edit; below, the last
// month's tickets that named a reference.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { ResendTickets } from './ResendTickets';
import { editRefQuantity, refKeys, refOptionsQuery, refSalesQuery, type RefOptionRow } from './api';

function OptionRow({ o }: { o: RefOptionRow }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(String(o.Quantity));
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const save = async () => {
    setState('saving');
    try {
      await editRefQuantity(o, Number(value));
      setState('saved');
      await queryClient.invalidateQueries({ queryKey: refKeys.options });
    } catch {
      setState('failed');
    }
  };
  const id = `ref-${o.PriceId}-${o.PriceRowId}`;
  return (
    <tr>
      <th scope="row">{o.Reference1}</th>
      <td>{o.Reference2 || '—'}</td>
      <td>{i18n.language === 'he' ? o.TicketName : o.TicketNameEn}</td>
      <td>{o.UsedQuantity}</td>
      <td>
        <label className="visually-hidden" htmlFor={id}>
          {t('staff.refs.quantityOf', { reference: o.Reference1 })}
        </label>
        <input
          id={id}
          className="staff-qty"
          type="number"
          min={0}
          max={100000}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button
          type="button"
          className="staff-button staff-button--quiet"
          disabled={state === 'saving' || value === '' || Number(value) < 0}
          onClick={() => void save()}
        >
          {t('staff.refs.save')}
        </button>
        <span role="status" className="staff-qty__state">
          {state === 'saved'
            ? t('staff.refs.saved')
            : state === 'failed'
              ? t('staff.loadError')
              : ''}
        </span>
      </td>
    </tr>
  );
}

export function RefAdmin() {
  const { t } = useTranslation();
  const options = useQuery(refOptionsQuery());
  const sales = useQuery(refSalesQuery());
  if (options.isPending) return <Loading block />;
  if (options.error) return <Notice tone="error" title={t('staff.loadError')} headingLevel={2} />;
  return (
    <section aria-labelledby="staff-refs-title">
      <h2 id="staff-refs-title">{t('staff.refs.title')}</h2>
      <ResendTickets />
      <table className="staff-table">
        <caption>{t('staff.refs.options')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('staff.refs.reference')}</th>
            <th scope="col">{t('staff.refs.reference2')}</th>
            <th scope="col">{t('staff.refs.ticket')}</th>
            <th scope="col">{t('staff.refs.used')}</th>
            <th scope="col">{t('staff.refs.left')}</th>
          </tr>
        </thead>
        <tbody>
          {options.data.options.map((o) => (
            <OptionRow key={`${o.PriceId}-${o.PriceRowId}-${o.Quantity}`} o={o} />
          ))}
        </tbody>
      </table>
      {sales.data && (
        <table className="staff-table">
          <caption>{t('staff.refs.sales')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('staff.refs.reference')}</th>
              <th scope="col">{t('staff.sales.feature')}</th>
              <th scope="col">{t('staff.sales.when')}</th>
              <th scope="col">{t('staff.refs.tickets')}</th>
            </tr>
          </thead>
          <tbody>
            {sales.data.rows.length === 0 && (
              <tr>
                <td colSpan={4}>{t('staff.refs.none')}</td>
              </tr>
            )}
            {sales.data.rows.map((r) => (
              <tr key={`${r.PresentationId}-${r.TicketId}-${r.Reference1}-${r.Reference2}`}>
                <th scope="row">{r.Reference1}</th>
                <td>{r.FeatureName}</td>
                <td>{r.PresentationDateTime.slice(0, 10)}</td>
                <td>{r.Quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
