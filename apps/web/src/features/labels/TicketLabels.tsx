/** The labels of the open ticket, in the chat header: its chips (a cross takes one off) and the picker. */
import Box from '@mui/material/Box';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { TLabelRef } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { toastError } from '../../core/ui/toastError';
import { saveTicketInCache } from '../tickets/tickets.api';
import { LabelChips } from './LabelChips';
import { LabelPicker } from './LabelPicker';
import { setTicketLabel } from './labels.api';

export function TicketLabels({ ticket }: { ticket: TTicket }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useAuth();

  const toggle = async (label: TLabelRef, on: boolean) => {
    try {
      const saved = await setTicketLabel(ticket.id, label.id, on);
      // Shown from the answer: the screen does not wait for the live event.
      saveTicketInCache(queryClient, saved, user);
      queryClient.setQueryData(['tickets', 'detail', ticket.id], saved);
      toast.success(t(on ? 'labels.added' : 'labels.removed', { name: label.name }));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0, flexWrap: 'wrap' }} data-testid="ticket-labels">
      <LabelChips labels={ticket.labels} testId="ticket-label" onDelete={(label) => void toggle(label, false)} deleteLabel={(label) => t('labels.removeOne', { name: label.name })} />
      <LabelPicker selected={ticket.labels} onToggle={toggle} testId="ticket-label-picker" />
    </Box>
  );
}
