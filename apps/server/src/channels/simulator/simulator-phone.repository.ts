/** A simulated phone's state log in the database (the cluster mode): one row per line, in order. */
import type { Db } from '../../core/db/database.js';
import type { PhoneLog } from './simulator-phone.js';

export function databasePhoneLog(db: Db, whatsappId: number): PhoneLog {
  return {
    lines: async () => (await db.selectFrom('simulatorPhoneLog').select('line').where('whatsappId', '=', whatsappId).orderBy('id').execute()).map((r) => r.line),
    append: async (line) => {
      await db.insertInto('simulatorPhoneLog').values({ whatsappId, line }).execute();
    },
    replace: async (lines) => {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('simulatorPhoneLog').where('whatsappId', '=', whatsappId).execute();
        for (let i = 0; i < lines.length; i += 500) {
          await trx
            .insertInto('simulatorPhoneLog')
            .values(lines.slice(i, i + 500).map((line) => ({ whatsappId, line })))
            .execute();
        }
      });
    },
  };
}
