/** The bell's 'Menções' part: the open mentions not yet opened, each opening its ticket, and the way to the whole list. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TMention } from '@zapdesk/shared/notes';
import { toastError } from '../../core/ui/toastError';
import { MentionItem } from './MentionItem';
import { markMention, mentionsKeys } from './notes.api';

const SHOWN = 5;

export function MentionsBellSection({ mentions, onNavigate }: { mentions: TMention[]; onNavigate: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const unread = mentions.filter((m) => m.readAt === null);
  const go = (path: string) => {
    onNavigate();
    void navigate(path);
  };
  const open = (mention: TMention) => {
    void markMention(mention.id, 'read').then(() => queryClient.invalidateQueries({ queryKey: mentionsKeys.all }), toastError);
    go(`/tickets/${mention.ticketId}`);
  };
  return (
    <Box sx={{ borderBottom: 1, borderColor: 'divider' }} data-testid="bell-mentions">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, pt: 1 }}>
        <Typography variant="subtitle2" fontWeight={700}>
          {t('notes.mentions.title')}
        </Typography>
        <Button size="small" onClick={() => go('/mentions')} data-testid="bell-mentions-all">
          {t('notes.mentions.seeAll')}
        </Button>
      </Box>
      {unread.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {t('notes.mentions.noneNew')}
        </Typography>
      ) : (
        unread.slice(0, SHOWN).map((mention) => (
          <ListItemButton key={mention.id} onClick={() => open(mention)} sx={{ px: 2 }} data-testid="bell-mention" data-id={mention.id}>
            <MentionItem mention={mention} />
          </ListItemButton>
        ))
      )}
    </Box>
  );
}
