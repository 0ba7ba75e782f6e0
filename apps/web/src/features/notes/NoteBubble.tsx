/** A private note in the chat: a yellow bubble labelled 'Nota interna' with its author, never mistaken for a sent message. */
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TMessage } from '@zapdesk/shared/messaging';
import { useAuth } from '../../core/auth/AuthProvider';
import { formatTime } from '../../core/ui/formatDate';

export const NOTE_COLOR = '#FFF4C2';
export const NOTE_BORDER = '#F2C94C';

export function NoteBubble({ message, onDelete }: { message: TMessage; onDelete: (message: TMessage) => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const mine = message.noteAuthor?.id === user?.id;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mb: 0.75 }} data-testid="note" data-id={message.id}>
      <Box
        sx={{
          position: 'relative',
          width: { xs: '92%', sm: 'min(80%, 640px)' },
          px: 1.5,
          py: 0.75,
          borderRadius: '8px',
          bgcolor: NOTE_COLOR,
          border: 1,
          borderColor: NOTE_BORDER,
          borderLeftWidth: 4,
          boxShadow: '0 1px 0.5px rgba(0,0,0,0.13)',
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, pr: mine && !message.isDeleted ? 3 : 0 }}>
          <LockOutlined sx={{ fontSize: 14, color: '#8A6D00' }} />
          <Typography variant="caption" fontWeight={700} sx={{ color: '#8A6D00' }} data-testid="note-label">
            {message.noteAuthor ? t('notes.labelBy', { name: message.noteAuthor.name }) : t('notes.label')}
          </Typography>
        </Box>
        {mine && !message.isDeleted ? (
          <IconButton size="small" onClick={() => onDelete(message)} aria-label={t('notes.delete')} sx={{ position: 'absolute', top: 2, right: 2, p: 0.25 }} data-testid="note-delete">
            <DeleteOutline fontSize="small" />
          </IconButton>
        ) : null}
        {message.isDeleted ? (
          <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
            {t('notes.deleted')}
          </Typography>
        ) : (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="note-body">
            {message.body.split(/(@[\p{L}\p{N}_.-]+(?: [\p{Lu}][\p{L}]+)?)/u).map((part, i) =>
              part.startsWith('@') ? (
                <Box component="span" key={i} sx={{ fontWeight: 700, color: '#5B4500' }}>
                  {part}
                </Box>
              ) : (
                part
              ),
            )}
          </Typography>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mt: 0.25 }}>
          <Typography variant="caption" sx={{ fontSize: 11, color: '#8A6D00' }}>
            {t('notes.onlyTeam')}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontSize: 11 }}>
            {formatTime(message.createdAt)}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
