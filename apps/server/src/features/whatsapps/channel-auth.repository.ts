/**
 * Channel session state in the database (table channelAuth), so that any node can take over
 * a session: one row per (connection, type, key id), values as JSON text.
 */
import type { ChannelAuthStore } from '../../channels/connection-store.js';
import type { Db } from '../../core/db/database.js';

export class DbChannelAuthStore implements ChannelAuthStore {
  constructor(
    private readonly db: Db,
    private readonly whatsappId: number,
  ) {}

  async get(type: string, ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('channelAuth')
        .select(['keyId', 'value'])
        .where('whatsappId', '=', this.whatsappId)
        .where('type', '=', type)
        .where('keyId', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) found.set(r.keyId, r.value);
    }
    return found;
  }

  async getOne(type: string, id: string): Promise<string | undefined> {
    return (await this.get(type, [id])).get(id);
  }

  async set(entries: { type: string; id: string; value: string | null }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const e of entries) {
        if (e.value === null) {
          await trx.deleteFrom('channelAuth').where('whatsappId', '=', this.whatsappId).where('type', '=', e.type).where('keyId', '=', e.id).execute();
        } else {
          await trx
            .insertInto('channelAuth')
            .values({ whatsappId: this.whatsappId, type: e.type, keyId: e.id, value: e.value })
            .onConflict((oc) => oc.columns(['whatsappId', 'type', 'keyId']).doUpdateSet({ value: e.value ?? '' }))
            .execute();
        }
      }
    });
  }

  async clear(): Promise<void> {
    await this.db.deleteFrom('channelAuth').where('whatsappId', '=', this.whatsappId).execute();
  }
}
