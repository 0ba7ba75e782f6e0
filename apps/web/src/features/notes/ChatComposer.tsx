/**
 * The chat's composer: 'Responder' (the message input, sent to the contact) or 'Nota interna'
 * (a yellow note only the team sees). A colleague who reads the ticket through a mention only
 * writes notes.
 */
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import { MessageInput } from '../chat/MessageInput';
import { NOTE_BORDER, NOTE_COLOR } from './NoteBubble';
import { NoteInput } from './NoteInput';
import { useReadsByMention } from './readsByMention';

type Props = { ticket: TTicket; replyTo: TMessage | null; onCancelReply: () => void };

export function ChatComposer({ ticket, replyTo, onCancelReply }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  // Here through a mention: notes only.
  const byMention = useReadsByMention(ticket);
  const current = byMention ? 'note' : mode;
  return (
    <Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          px: 1,
          pt: 0.75,
          bgcolor: current === 'note' ? NOTE_COLOR : '#F0F2F5',
          borderTop: 1,
          borderColor: current === 'note' ? NOTE_BORDER : 'divider',
        }}
      >
        <ToggleButtonGroup
          size="small"
          exclusive
          value={current}
          onChange={(_event, value: 'reply' | 'note' | null) => value && setMode(value)}
          aria-label={t('notes.mode')}
          data-testid="composer-mode"
        >
          <ToggleButton value="reply" disabled={byMention} sx={{ py: 0.25, px: 1.25, gap: 0.5, textTransform: 'none', whiteSpace: 'nowrap', color: '#45474A' }} data-testid="mode-reply">
            <ChatOutlined sx={{ fontSize: 16 }} />
            {t('notes.reply')}
          </ToggleButton>
          <ToggleButton
            value="note"
            sx={{
              py: 0.25,
              px: 1.25,
              gap: 0.5,
              textTransform: 'none',
              whiteSpace: 'nowrap',
              color: '#45474A',
              '&.Mui-selected': { bgcolor: NOTE_BORDER, color: '#3D2E00' },
              '&.Mui-selected:hover': { bgcolor: NOTE_BORDER },
            }}
            data-testid="mode-note"
          >
            <LockOutlined sx={{ fontSize: 16 }} />
            {t('notes.note')}
          </ToggleButton>
        </ToggleButtonGroup>
        {byMention ? (
          <>
            <Typography variant="caption" sx={{ color: '#8A6D00', display: { xs: 'none', sm: 'block' } }} data-testid="mention-only">
              {t('notes.byMention')}
            </Typography>
            <Typography variant="caption" sx={{ color: '#8A6D00', display: { xs: 'block', sm: 'none' } }}>
              {t('notes.byMentionShort')}
            </Typography>
          </>
        ) : null}
      </Box>
      {current === 'note' ? <NoteInput ticket={ticket} /> : <MessageInput ticket={ticket} replyTo={replyTo} onCancelReply={onCancelReply} />}
    </Box>
  );
}
