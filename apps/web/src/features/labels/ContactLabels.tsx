/** A contact's labels in the contact drawer: the chips and the picker. */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TContact, TLabelRef } from '@zapdesk/shared/schemas';
import { toastError } from '../../core/ui/toastError';
import { saveContactInCache } from '../contacts/contacts.api';
import { LabelChips } from './LabelChips';
import { LabelPicker } from './LabelPicker';
import { saveContactInTickets, setContactLabel } from './labels.api';

export function ContactLabels({ contact }: { contact: TContact }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  const toggle = async (label: TLabelRef, on: boolean) => {
    try {
      const saved = await setContactLabel(contact.id, label.id, on);
      saveContactInCache(queryClient, saved);
      saveContactInTickets(queryClient, saved);
      void queryClient.invalidateQueries({ queryKey: ['contacts', 'byLabel'] });
      toast.success(t(on ? 'labels.addedContact' : 'labels.removedContact', { name: label.name }));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="contact-labels">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="subtitle2">{t('labels.contactLabels')}</Typography>
        <LabelPicker selected={contact.labels} onToggle={toggle} testId="contact-label-picker" />
      </Box>
      {contact.labels.length ? (
        <LabelChips labels={contact.labels} testId="contact-label" onDelete={(label) => void toggle(label, false)} deleteLabel={(label) => t('labels.removeOne', { name: label.name })} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('labels.contactNone')}
        </Typography>
      )}
    </Paper>
  );
}
