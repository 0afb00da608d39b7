import { useTranslation } from 'react-i18next';
import './Loading.css';

/** A quiet spinner with a spoken label; `block` centres it in a tall box. */
export function Loading({ block = false }: { block?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={block ? 'loading loading--block' : 'loading'} role="status">
      <span className="loading__spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('app.loading')}</span>
    </div>
  );
}
