import { BulkPage } from './BulkPage';

export default function BulkVoicePage() {
  return <BulkPage kind="voice" />;
}
