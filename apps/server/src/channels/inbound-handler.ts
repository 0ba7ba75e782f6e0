/** What the inbound pipeline answers for: the events a connection's session hands on. */
import type { ChatAddress, HistoryAnchor, InboundCall, InboundMessage, InboundReaction } from './channel.js';

export type InboundHandler = {
  /** Messages in the order they arrived; a chat's messages never overtake each other. */
  messages(whatsappId: number, batch: InboundMessage[]): Promise<void>;
  ack(whatsappId: number, providerId: string, ack: number): Promise<void>;
  revoke(whatsappId: number, providerId: string): Promise<void>;
  edit(whatsappId: number, update: { providerId: string; body: string }): Promise<void>;
  reaction(whatsappId: number, reaction: InboundReaction): Promise<void>;
  contact(whatsappId: number, update: { number: string; name?: string; picture?: 'changed' | 'removed' }): Promise<void>;
  /** Someone calls the connection's number. */
  call(whatsappId: number, call: InboundCall): Promise<void>;
  /** The chats to read again after an unclean stop, each from its newest stored message. */
  recentChats(whatsappId: number): Promise<{ chat: ChatAddress; after: HistoryAnchor }[]>;
};
