import { BulkPage } from './BulkPage';

export default function BulkMediaUrlPage() {
  return <BulkPage kind="mediaUrl" />;
}
