/**
 * The open chat's own calls: transfer, delete, 'Protocolo', the import/export panel and the
 * 'Conversar' button of a contact card. The ticket lists' calls stay in tickets.api.ts.
 */
import type { z } from 'zod';
import type { ZHistoryImportResultSchema, ZTicketListSchema, TTicketProtocol, TTicket } from '@zapdesk/shared/messaging';
import type { TContact } from '@zapdesk/shared/schemas';
import { request, requestVoid } from '../../core/api/client';
import { ApiError } from '../../core/api/ApiError';

export type TransferInput = { userId?: number | null; queueId?: number | null; whatsappId?: number };

export function transferTicket(id: number, input: TransferInput) {
  return request<TTicket>(`/tickets/${id}`, { method: 'PUT', body: input });
}

export function deleteTicket(id: number) {
  return requestVoid(`/tickets/${id}`, { method: 'DELETE' });
}

/** 'Protocolo': the server sends the contact a protocol number, closes the ticket and returns both. */
export function requestProtocol(id: number) {
  return request<TTicketProtocol>(`/tickets/${id}/protocol`, { method: 'POST' });
}

export async function fetchTicketConnectionId(ticketId: number): Promise<number> {
  const { whatsappId } = await request<{ whatsappId: number }>('/zdgGetWppId', { method: 'POST', body: { ticketid: ticketId } });
  return whatsappId;
}

/** Imports up to `limit` past messages of the contact's chat from the phone's history. */
export async function importHistory(input: { number: string; limit: number; whatsappId: number }): Promise<number> {
  const { imported } = await request<z.output<typeof ZHistoryImportResultSchema>>('/zdgSyncMessageUser', {
    method: 'POST',
    body: { user: input.number, limit: input.limit, ticketwhatsappId: input.whatsappId },
  });
  return imported;
}

/**
 * 'Conversar' on a contact card: finds or creates the contact, then opens a ticket for it, or
 * answers the one it already has open.
 */
export async function startChat(card: { name: string; number: string }): Promise<number> {
  const contact = await request<TContact>('/contact', { method: 'POST', body: { name: card.name || card.number, number: card.number } });
  try {
    const ticket: TTicket = await request<TTicket>('/tickets', { method: 'POST', body: { contactId: contact.id, status: 'open' } });
    return ticket.id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'ERR_OTHER_OPEN_TICKET') throw error;
    const { tickets } = await request<z.output<typeof ZTicketListSchema>>('/tickets', { query: { searchParam: contact.number, showAll: 'true' } });
    const open = tickets.find((ticket) => ticket.contactId === contact.id && ticket.status !== 'closed');
    if (!open) throw error;
    return open.id;
  }
}

/** The conversation by e-mail (spec 'EMAIL' export): its text in the body and zdg.csv attached; to `to`, or to the configured address. */
export function emailConversation(input: { subject: string; text: string; csv: string; to?: string | undefined }) {
  const body = { zdgSubject: input.subject, zdgText: input.text, zdgFileName: 'zdg.csv', zdgContent: input.csv, ...(input.to ? { zdgTo: input.to } : {}) };
  return request<{ id: number; status: string }>(input.to ? '/zdgSendEmailAttachUser' : '/zdgSendEmailAttach', { method: 'POST', body });
}
