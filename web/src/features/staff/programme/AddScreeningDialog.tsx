// Add a screening: film, hall, its ticket group (by default the hall's; or its own, in place of
// the hall's main one, decision 0070), local day and time, and the sale window (default: open
// now, close 15 minutes after the start).
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/apiErrors';
import { localizedName } from '../../../lib/localized';
import {
  addScreening,
  type Complex,
  type FeatureChoice,
  type Screening,
  type TicketGroupChoice,
} from './api';
import { localDateTime } from './model';
import { DateTimeFields, StepActions } from './FormParts';
import { LabelledSelect } from './LabelledSelect';
import { Modal } from './Modal';
import { NameOptions } from '../NameOptions';

export function AddScreeningDialog({
  complex,
  features,
  ticketGroups,
  day,
  onClose,
}: {
  complex: Complex;
  features: readonly FeatureChoice[];
  /** The groups a screening may sell as its own. */
  ticketGroups: readonly TicketGroupChoice[];
  /** The day first offered (YYYY-MM-DD). */
  day: string;
  onClose: (added: Screening | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const halls = complex.halls.filter((h) => h.seatplanId != null);
  const [featureId, setFeatureId] = useState(features[0]?.id ?? 0);
  const [venueId, setVenueId] = useState(halls[0]?.id ?? 0);
  const [date, setDate] = useState(day);
  const [time, setTime] = useState('');
  const [saleStarts, setSaleStarts] = useState('');
  const [saleEnds, setSaleEnds] = useState('');
  // '' : as the hall.
  const [ticketGroup, setTicketGroup] = useState('');
  const add = useMutation({
    mutationFn: () =>
      addScreening({
        featureId,
        venueId,
        date,
        time,
        saleStarts: localDateTime(saleStarts),
        saleEnds: localDateTime(saleEnds),
        ticketGroupId: ticketGroup === '' ? undefined : Number(ticketGroup),
      }),
    onSuccess: (r) => onClose(r.screening),
  });
  const hall = halls.find((h) => h.id === venueId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <Modal title={t('staffProgramme.add.title')} onClose={() => onClose(null)}>
      <form className="programme-form" onSubmit={submit}>
        <label>
          {t('staffProgramme.field.film')}
          <select value={featureId} onChange={(e) => setFeatureId(Number(e.target.value))}>
            {features.map((f) => (
              <option key={f.id} value={f.id}>
                {localizedName(lang, f.name, f.nameEn)} ·{' '}
                {t('staffProgramme.minutes', { count: f.runtimeMinutes })}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('staffProgramme.field.hall')}
          <select value={venueId} onChange={(e) => setVenueId(Number(e.target.value))}>
            <NameOptions items={halls} />
          </select>
        </label>
        <LabelledSelect
          className="programme-form__field"
          label={t('staffProgramme.ticketGroup.label')}
          value={ticketGroup}
          onChange={(e) => setTicketGroup(e.target.value)}
        >
          <option value="">
            {hall && hall.ticketGroups.length > 0
              ? t('staffProgramme.ticketGroup.asHallNamed', {
                  name: localizedName(lang, hall.ticketGroups[0].name, hall.ticketGroups[0].nameEn),
                })
              : t('staffProgramme.ticketGroup.asHall')}
          </option>
          <NameOptions items={ticketGroups} />
        </LabelledSelect>
        {hall && (
          <p className="programme-form__hint">
            {t('staffProgramme.field.ticketGroups')}:{' '}
            {hall.ticketGroups.map((g) => localizedName(lang, g.name, g.nameEn)).join(', ')}
          </p>
        )}
        <DateTimeFields date={date} time={time} onDate={setDate} onTime={setTime} />
        <fieldset className="programme-form__sale">
          <legend>{t('staffProgramme.field.saleWindow')}</legend>
          <label>
            {t('staffProgramme.field.saleStarts')}
            <input
              type="datetime-local"
              value={saleStarts}
              onChange={(e) => setSaleStarts(e.target.value)}
            />
          </label>
          <label>
            {t('staffProgramme.field.saleEnds')}
            <input
              type="datetime-local"
              value={saleEnds}
              onChange={(e) => setSaleEnds(e.target.value)}
            />
          </label>
          <p className="programme-form__hint">{t('staffProgramme.field.saleDefault')}</p>
        </fieldset>
        <StepActions
          failure={add.isError ? errorMessage(t, add.error) : null}
          label={t('staffProgramme.add.submit')}
          disabled={add.isPending}
          backLabel={t('staffProgramme.close')}
          onBack={() => onClose(null)}
        />
      </form>
    </Modal>
  );
}
