/** Labels (migration 033): admin-defined names and colours, linked to tickets and contacts. */
import type { Generated } from 'kysely';

type Timestamp = string;

export type LabelsTable = {
  id: Generated<number>;
  name: string;
  /** '#RRGGBB', upper case. */
  color: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type TicketLabelsTable = { ticketId: number; labelId: number };

export type ContactLabelsTable = { contactId: number; labelId: number };

export type LabelsTables = {
  labels: LabelsTable;
  ticketLabels: TicketLabelsTable;
  contactLabels: ContactLabelsTable;
};
