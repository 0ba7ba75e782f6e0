import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import { useTranslation } from 'react-i18next';
import type { MenuLabelKey } from '../routes';
import { MessagePage } from './MessagePage';

export function ComingSoonPage({ labelKey }: { labelKey: MenuLabelKey }) {
  const { t } = useTranslation();
  return <MessagePage testId="coming-soon" icon={<RocketLaunchOutlined />} title={t('comingSoon.title')} body={t('comingSoon.body', { page: t(`menu.${labelKey}`) })} />;
}
