import { BulkPage } from './BulkPage';

export default function BulkMediaPathPage() {
  return <BulkPage kind="mediaPath" />;
}
