/** One mention in a list (the bell, the 'Menções' page): who mentioned the user, where, the note, and its actions. */
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMention } from '@zapdesk/shared/notes';
import { formatRecent } from '../../core/ui/formatDate';
import { initials } from '../../core/ui/initials';

export function MentionItem({ mention, actions, lines = 2 }: { mention: TMention; actions?: ReactNode; lines?: number }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', gap: 1.25, alignItems: 'flex-start', minWidth: 0, flex: 1 }}>
      <Avatar src={mention.contact.profilePicUrl || undefined} sx={{ width: 38, height: 38 }}>
        {initials(mention.contact.name)}
      </Avatar>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, flexWrap: 'wrap' }}>
          <Typography fontWeight={600} sx={{ minWidth: 0, wordBreak: 'break-word' }}>
            {t('notes.mentions.by', { name: mention.by?.name ?? t('notes.mentions.someone'), contact: mention.contact.name })}
          </Typography>
          {mention.open && mention.readAt === null ? <Chip size="small" color="secondary" label={t('notes.mentions.new')} sx={{ height: 20 }} /> : null}
          {!mention.open ? <Chip size="small" label={t('notes.mentions.ended')} sx={{ height: 20 }} /> : null}
        </Box>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
            display: '-webkit-box',
            WebkitLineClamp: lines,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            bgcolor: '#FFF9DB',
            borderRadius: 1,
            px: 0.75,
            py: 0.25,
            mt: 0.25,
          }}
          data-testid="mention-body"
        >
          {mention.body || t('notes.deleted')}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 0.5, flexWrap: 'wrap' }}>
          <Typography variant="caption" color="text.secondary">
            {formatRecent(mention.createdAt)}
          </Typography>
          {actions}
        </Box>
      </Box>
    </Box>
  );
}
