// One screening's own sales settings (decision 0070), in its dialog: the ticket group it sells
// (the hall's, or its own in place of the hall's main one; changeable while none of its seats is
// held or sold) and its channels (the web shop and the mini-sites, each open or closed to this
// screening alone). Each change is saved at once; every server follows within a second.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/apiErrors';
import { localizedName } from '../../../lib/localized';
import {
  SALE_CHANNELS,
  setScreeningChannel,
  setTicketGroup,
  type Hall,
  type SaleChannel,
  type Screening,
  type TicketGroupChoice,
} from './api';
import { LabelledSelect } from './LabelledSelect';
import { NameOptions } from '../NameOptions';

export function ScreeningSettings({
  screening: s,
  hall,
  ticketGroups,
  onChanged,
}: {
  screening: Screening;
  hall: Hall | undefined;
  ticketGroups: readonly TicketGroupChoice[];
  onChanged: (s: Screening) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [group, setGroup] = useState(s.ticketGroupId == null ? '' : String(s.ticketGroupId));
  const saveGroup = useMutation({
    mutationFn: () => setTicketGroup(s.id, group === '' ? null : Number(group)),
    onSuccess: (r) => onChanged(r.screening),
  });
  const channel = useMutation({
    mutationFn: ({ c, open }: { c: SaleChannel; open: boolean }) =>
      setScreeningChannel(s.id, c, open),
    onSuccess: (r) => onChanged(r.screening),
  });
  const taken = s.sold + s.held > 0;
  const main = hall?.ticketGroups[0];
  const asHall = main
    ? t('staffProgramme.ticketGroup.asHallNamed', {
        name: localizedName(lang, main.name, main.nameEn),
      })
    : t('staffProgramme.ticketGroup.asHall');
  const current = s.ticketGroupId == null ? '' : String(s.ticketGroupId);
  const error = saveGroup.isError
    ? errorMessage(t, saveGroup.error)
    : channel.isError
      ? errorMessage(t, channel.error)
      : null;

  return (
    <div className="programme-settings">
      <div className="programme-settings__group">
        <LabelledSelect
          className="programme-settings__field"
          label={t('staffProgramme.ticketGroup.label')}
          value={group}
          disabled={taken || saveGroup.isPending}
          aria-describedby={taken ? `group-hint-${s.id}` : undefined}
          onChange={(e) => setGroup(e.target.value)}
        >
          <option value="">{asHall}</option>
          <NameOptions items={ticketGroups} />
        </LabelledSelect>
        {group !== current && !taken && (
          <button
            type="button"
            className="staff-button"
            disabled={saveGroup.isPending}
            onClick={() => saveGroup.mutate()}
          >
            {t('staffProgramme.ticketGroup.save')}
          </button>
        )}
      </div>
      {taken && (
        <p id={`group-hint-${s.id}`} className="programme-form__hint">
          {t('staffProgramme.ticketGroup.locked')}
        </p>
      )}
      <fieldset className="programme-settings__channels">
        <legend>{t('staffProgramme.channels.title')}</legend>
        {SALE_CHANNELS.map((c) => {
          const open = !s.closedChannels.includes(c);
          const name = t(`staffSwitches.channels.${c}`);
          return (
            <label className="switch" key={c}>
              <input
                type="checkbox"
                role="switch"
                checked={open}
                disabled={channel.isPending}
                onChange={(e) => channel.mutate({ c, open: e.target.checked })}
              />
              <span>
                {name}: {open ? t('staffProgramme.channels.open') : t('errors.noTicketsInChannel')}
              </span>
            </label>
          );
        })}
      </fieldset>
      {error && (
        <p className="programme-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
