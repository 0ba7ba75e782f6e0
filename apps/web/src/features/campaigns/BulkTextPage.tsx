import { BulkPage } from './BulkPage';

export default function BulkTextPage() {
  return <BulkPage kind="text" />;
}
