/** The names the Reports page's filters offer: every queue, user and connection, by name. */
import type { TReportOptions } from '@zapdesk/shared/reports';
import type { Db } from '../../core/db/database.js';

export async function reportOptions(db: Db): Promise<TReportOptions> {
  const [queues, users, whatsapps] = await Promise.all([
    db.selectFrom('queues').select(['id', 'name', 'color']).orderBy('name').execute(),
    db.selectFrom('users').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('whatsapps').select(['id', 'name']).orderBy('name').execute(),
  ]);
  return { queues, users, whatsapps, labels: [] };
}
