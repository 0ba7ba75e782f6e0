import ExploreOffOutlined from '@mui/icons-material/ExploreOffOutlined';
import { useTranslation } from 'react-i18next';
import { MessagePage } from './MessagePage';

export function NotFoundPage() {
  const { t } = useTranslation();
  return <MessagePage testId="not-found" icon={<ExploreOffOutlined />} title={t('notFound.title')} body={t('notFound.body')} action={{ label: t('notFound.home'), to: '/' }} />;
}
