/** 'Menções': the notes that mention the user, open (they may open the ticket) or done. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { MentionState, TMention } from '@zapdesk/shared/notes';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { MentionItem } from './MentionItem';
import { markMention, mentionsKeys, useMentions } from './notes.api';

export default function MentionsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<MentionState>('open');
  const { data, isPending } = useMentions(state);

  const openTicket = (mention: TMention) => {
    if (mention.readAt === null) void markMention(mention.id, 'read').then(() => queryClient.invalidateQueries({ queryKey: mentionsKeys.all }), toastError);
    void navigate(`/tickets/${mention.ticketId}`);
  };
  const done = async (mention: TMention) => {
    try {
      await markMention(mention.id, 'done');
      await queryClient.invalidateQueries({ queryKey: mentionsKeys.all });
      toast.success(t('notes.mentions.doneToast'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <PageLayout title={t('notes.mentions.title')} subtitle={t('notes.mentions.subtitle')} testId="mentions-page">
      <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1, overflow: 'hidden' }}>
        <Tabs value={state} onChange={(_event, value: MentionState) => setState(value)} sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}>
          <Tab value="open" label={t('notes.mentions.open')} data-testid="mentions-tab-open" />
          <Tab value="done" label={t('notes.mentions.done')} data-testid="mentions-tab-done" />
        </Tabs>
        <Box sx={{ overflowY: 'auto', flex: 1 }} data-testid="mentions-list">
          {isPending ? null : !data || data.mentions.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 3 }} data-testid="mentions-empty">
              {state === 'open' ? t('notes.mentions.empty') : t('notes.mentions.emptyDone')}
            </Typography>
          ) : (
            data.mentions.map((mention) => (
              <Box key={mention.id} sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }} data-testid="mention-row" data-id={mention.id}>
                <MentionItem
                  mention={mention}
                  lines={4}
                  actions={
                    mention.open ? (
                      <Box sx={{ display: 'flex', gap: 1 }}>
                        <Button size="small" variant="outlined" onClick={() => void done(mention)} data-testid="mention-done">
                          {t('notes.mentions.markDone')}
                        </Button>
                        <Button size="small" variant="contained" onClick={() => openTicket(mention)} data-testid="mention-open">
                          {t('notes.mentions.openTicket')}
                        </Button>
                      </Box>
                    ) : null
                  }
                />
              </Box>
            ))
          )}
        </Box>
      </Paper>
    </PageLayout>
  );
}
