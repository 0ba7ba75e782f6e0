/** The connections feature's side of the session manager's ConnectionStore (see channels/connection-store.ts). */
import type { ConnectionStore } from '../../channels/connection-store.js';
import type { Db } from '../../core/db/database.js';
import { DbChannelAuthStore } from './channel-auth.repository.js';
import { findSessionOpenSince, findWhatsappById, listWhatsapps, setSessionOpenSince, updateSessionState } from './whatsapps.repository.js';

export function createConnectionStore(db: Db): ConnectionStore {
  return {
    ids: async () => (await listWhatsapps(db)).map((w) => w.id),
    channelOf: async (id) => (await findWhatsappById(db, id))?.channel,
    saveState: async (id, state, now) => {
      await updateSessionState(db, id, state, now);
      const current = await findWhatsappById(db, id);
      return current && { status: current.status, qrcode: current.qrcode, retries: current.retries, updatedAt: current.updatedAt };
    },
    sessionOpenSince: (id) => findSessionOpenSince(db, id),
    setSessionOpenSince: (id, since) => setSessionOpenSince(db, id, since),
    authStore: (id) => new DbChannelAuthStore(db, id),
  };
}
