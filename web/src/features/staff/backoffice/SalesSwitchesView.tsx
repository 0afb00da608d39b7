// The sales switches (issue 18 item 5): per complex and channel, the complex taken offline (book
// at the box office), advance sales, and the channel's tickets open. Each switch is saved when
// flipped; every node sells by it within a second. Managers only: the server refuses everyone else.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import { localizedName } from '../../../lib/localized';
import { backofficeKeys, setSwitch, switchesQuery, type Channel, type SalesSwitch } from './api';
import { switchReason } from './model';
import './backoffice.css';

type Flag = 'online' | 'advanceSales' | 'open';
const FLAGS: Flag[] = ['online', 'advanceSales', 'open'];

function isOn(s: SalesSwitch, f: Flag): boolean {
  return f === 'online' ? !s.offline : s[f];
}

function flipped(s: SalesSwitch, f: Flag, on: boolean): SalesSwitch {
  return f === 'online' ? { ...s, offline: !on } : { ...s, [f]: on };
}

export function SalesSwitchesView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const switches = useQuery(switchesQuery());
  const save = useMutation({
    mutationFn: setSwitch,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: backofficeKeys.switches });
      void queryClient.invalidateQueries({ queryKey: backofficeKeys.audit });
    },
  });

  if (switches.isPending) return <Loading block />;
  if (switches.error) return <Notice tone="error" title={errorMessage(t, switches.error)} />;
  const complexes = switches.data.complexes;
  return (
    <section className="backoffice" aria-labelledby="switches-title">
      <h2 id="switches-title" className="backoffice__title">
        {t('staffSwitches.title')}
      </h2>
      <p className="backoffice__intro">{t('staffSwitches.intro')}</p>
      {save.error && (
        <p className="backoffice__error" role="alert">
          {errorMessage(t, save.error)}
        </p>
      )}
      {complexes.length === 0 && <Notice tone="neutral" title={t('staffProgramme.noComplex')} />}
      {complexes.map((c) => {
        const name = localizedName(lang, c.name, c.nameEn);
        return (
          <table className="switches" key={c.id}>
            <caption>{name}</caption>
            <thead>
              <tr>
                <th scope="col">{t('staffSwitches.channel')}</th>
                {FLAGS.map((f) => (
                  <th scope="col" key={f}>
                    {t(`staffSwitches.flag.${f}`)}
                  </th>
                ))}
                <th scope="col">{t('staffSwitches.state')}</th>
              </tr>
            </thead>
            <tbody>
              {c.switches.map((s) => {
                const reason = switchReason(s);
                const channel = t(`staffSwitches.channels.${s.channel as Channel}`);
                return (
                  <tr key={s.channel}>
                    <th scope="row">{channel}</th>
                    {FLAGS.map((f) => (
                      <td key={f}>
                        <label className="switch">
                          <input
                            type="checkbox"
                            role="switch"
                            checked={isOn(s, f)}
                            disabled={save.isPending}
                            aria-label={`${t(`staffSwitches.flag.${f}`)} · ${channel} · ${name}`}
                            onChange={(e) => save.mutate(flipped(s, f, e.target.checked))}
                          />
                          <span>{isOn(s, f) ? t('staffSwitches.on') : t('staffSwitches.off')}</span>
                        </label>
                      </td>
                    ))}
                    <td
                      className={
                        reason ? 'switches__state switches__state--stopped' : 'switches__state'
                      }
                    >
                      {reason ? t(`errors.${reason}`) : t('staffSwitches.onSale')}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        );
      })}
    </section>
  );
}
