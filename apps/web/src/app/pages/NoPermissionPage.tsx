import LockOutlined from '@mui/icons-material/LockOutlined';
import { useTranslation } from 'react-i18next';
import { MessagePage } from './MessagePage';

export function NoPermissionPage() {
  const { t } = useTranslation();
  return <MessagePage testId="no-permission" icon={<LockOutlined />} title={t('noPermission.title')} body={t('noPermission.body')} action={{ label: t('noPermission.home'), to: '/' }} />;
}
