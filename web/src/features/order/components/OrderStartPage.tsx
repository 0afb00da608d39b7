import { useTranslation } from 'react-i18next';
import { NotAvailable } from '../../../components/ui/NotAvailable';

export default function OrderStartPage() {
  const { t } = useTranslation();
  return <NotAvailable screenTitle={t('screens.orderStart')} />;
}
