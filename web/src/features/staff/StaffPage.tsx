// /PRES-live: the staff's live monitoring (docs/api.md §13), and /PRES-live/door the ushers' door. Staff log in here with their own
// account (not a customer's); the page then drills from the calendar to a presentation box.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ApiError } from '../../lib/api/client';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { useDocumentTitle } from '../../lib/documentTitle';
import { staffMeQuery } from './api';
import { StaffLogin } from './StaffLogin';
import { LiveMonitor } from './LiveMonitor';
import { DoorPage } from './door/DoorPage';
import './staff.css';

export default function StaffPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('staff.title'));
  const me = useQuery(staffMeQuery());
  const atDoor = /\/PRES-live\/door\/?$/.test(useLocation().pathname);
  if (me.isPending) return <Loading block />;
  if (me.error) {
    if (me.error instanceof ApiError && me.error.status === 401) return <StaffLogin />;
    return <Notice tone="error" title={t('staff.loadError')} />;
  }
  if (atDoor && me.data.user.role !== 'ticketReferenceAgent') return <DoorPage me={me.data.user} />;
  return <LiveMonitor me={me.data.user} />;
}
