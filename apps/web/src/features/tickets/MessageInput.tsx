/**
 * The chat's input: up to 5 lines, Enter sends (Shift+Enter breaks the line), files go through
 * the attach button. Only an open ticket takes messages.
 */
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@zapdesk/shared/domain';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import { toastError } from '../../core/ui/toastError';
import { saveMessageInCache, sendMediaMessage, sendTextMessage } from './tickets.api';

type Props = { ticket: TTicket; replyTo: TMessage | null; onCancelReply: () => void };

export function MessageInput({ ticket, replyTo, onCancelReply }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const fileRef = useRef<HTMLInputElement | null>(null);
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const enabled = ticket.status === 'open';

  const afterSend = (messages: TMessage[]) => {
    for (const message of messages) saveMessageInCache(queryClient, message);
    onCancelReply();
  };

  const sendText = async () => {
    const body = text;
    if (!enabled || sending || body.trim() === '') return;
    setSending(true);
    try {
      afterSend(await sendTextMessage(ticket.id, body, replyTo?.id));
      setText('');
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  };

  const sendFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0 || !enabled) return;
    setSending(true);
    try {
      afterSend(await sendMediaMessage(ticket.id, files, text.trim(), replyTo?.id));
      setText('');
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void sendText();
    }
  };

  return (
    <Box sx={{ borderTop: 1, borderColor: 'divider', bgcolor: '#F0F2F5', px: 1, py: 1 }} data-testid="message-input-bar">
      {replyTo && enabled ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, px: 1, py: 0.5, borderLeft: 4, borderColor: 'primary.main', bgcolor: 'background.paper', borderRadius: 1 }} data-testid="reply-preview">
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="caption" fontWeight={600} color="primary" component="div">
              {replyTo.fromMe ? t('chat.you') : (replyTo.contact?.name ?? ticket.contact.name)}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {replyTo.body}
            </Typography>
          </Box>
          <IconButton size="small" onClick={onCancelReply} aria-label={t('chat.cancelReply')} data-testid="reply-cancel">
            <Close fontSize="small" />
          </IconButton>
        </Box>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
        <input ref={fileRef} type="file" multiple hidden onChange={(event) => void sendFiles(event)} data-testid="message-file" />
        <IconButton disabled={!enabled || sending} onClick={() => fileRef.current?.click()} aria-label={t('chat.attach')} data-testid="message-attach">
          <AttachFile />
        </IconButton>
        <InputBase
          inputRef={inputRef}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={!enabled}
          placeholder={enabled ? t('chat.inputPlaceholder') : t('chat.closedPlaceholder')}
          multiline
          maxRows={LIMITS.inputMaxLines}
          sx={{ flex: 1, bgcolor: 'background.paper', borderRadius: 3, px: 2, py: 1, fontSize: 15 }}
          inputProps={{ 'data-testid': 'message-input', 'aria-label': t('chat.inputPlaceholder') }}
        />
        <IconButton color="primary" disabled={!enabled || sending || text.trim() === ''} onClick={() => void sendText()} aria-label={t('chat.send')} data-testid="message-send">
          <Send />
        </IconButton>
      </Box>
    </Box>
  );
}
