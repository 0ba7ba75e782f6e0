/** The tool API's reads and the contacts clean-up (spec 7 'Extra backend calls'). */
import type { AppContext } from '../../core/context.js';
import { deleteContactsWithoutConversations, listContactsBrief } from '../contacts/contacts.repository.js';
import { listWhatsapps } from '../whatsapps/whatsapps.repository.js';

/** The connections that are connected now (GET /whatsappzdg, 'Mostrar ID de Disparo'). */
export async function connectedConnections(ctx: AppContext) {
  const connections = (await listWhatsapps(ctx.db)).filter((w) => w.status === 'CONNECTED').map((w) => ({ id: w.id, name: w.name, status: w.status }));
  return { ids: connections.map((c) => c.id), connections };
}

export function contactsBrief(ctx: AppContext) {
  return listContactsBrief(ctx.db);
}

/** POST /delContacts: the contacts with no ticket and no message go; the others stay. */
export async function deleteUnusedContacts(ctx: AppContext): Promise<{ deleted: number }> {
  const ids = await deleteContactsWithoutConversations(ctx.db);
  for (const contactId of ids) ctx.events.publish('contact.deleted', { contactId });
  return { deleted: ids.length };
}
