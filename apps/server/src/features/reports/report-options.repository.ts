/** The names the Reports page's filters offer: every queue, user, connection and label, by name. */
import type { TReportOptions } from '@zapdesk/shared/reports';
import type { Db } from '../../core/db/database.js';

export async function reportOptions(db: Db): Promise<TReportOptions> {
  const [queues, users, whatsapps, labels] = await Promise.all([
    db.selectFrom('queues').select(['id', 'name', 'color']).orderBy('name').execute(),
    db.selectFrom('users').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('whatsapps').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('labels').select(['id', 'name', 'color']).orderBy('name').execute(),
  ]);
  return { queues, users, whatsapps, labels };
}
