/** A simulated phone's state log in the database (the cluster mode): one row per line, in order. */
import type { Db } from '../../core/db/database.js';
import { prepared } from '../../core/db/prepared.js';
import type { PhoneLog } from './simulator-phone.js';

// A line for every message the phone sends or receives: built once (see core/db/prepared.ts).
const appendLine = prepared((db: Db, whatsappId: number, line: string) => db.insertInto('simulatorPhoneLog').values({ whatsappId, line }));

export function databasePhoneLog(db: Db, whatsappId: number): PhoneLog {
  return {
    lines: async () => (await db.selectFrom('simulatorPhoneLog').select('line').where('whatsappId', '=', whatsappId).orderBy('id').execute()).map((r) => r.line),
    append: async (line) => {
      await appendLine(db, whatsappId, line);
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
