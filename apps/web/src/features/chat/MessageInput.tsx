/**
 * The chat's input: up to 5 lines, Enter sends (Shift+Enter breaks the line), emoji, files,
 * voice notes, the Sign toggle and '/' quick answers. Only an open ticket takes messages.
 */
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@zapdesk/shared/domain';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import type { TQuickAnswer } from '@zapdesk/shared/schemas';
import { renderVariables } from '@zapdesk/shared/variables';
import { ApiError } from '../../core/api/ApiError';
import { useAuth } from '../../core/auth/AuthProvider';
import { toastError } from '../../core/ui/toastError';
import { AttachmentsPreview } from './AttachmentsPreview';
import { AudioRecorder, type RecorderState } from './AudioRecorder';
import { EmojiPickerButton } from './EmojiPickerButton';
import { usePendingFiles } from './usePendingFiles';
import { QUICK_ANSWERS_LIST_ID, QuickAnswerSuggestions, quickAnswerOptionId, quickAnswerSearch, useQuickAnswers } from './QuickAnswerSuggestions';
import { saveMessageInCache, sendMediaMessage, sendTextMessage } from '../tickets/tickets.api';

/** A reply the server stored but could not send: it is in the chat as failed, with Retry. */
function isStoredFailure(error: unknown): boolean {
  return error instanceof ApiError && error.messageId !== undefined;
}

const SIGN_STORAGE_KEY = 'zapdesk.signMessage';

function readSign(): boolean {
  try {
    return localStorage.getItem(SIGN_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Signed messages start with the agent's name in WhatsApp bold, as whaticket sends them. */
export function signBody(body: string, name: string): string {
  return `*${name}:*\n${body}`;
}

type Props = { ticket: TTicket; replyTo: TMessage | null; onCancelReply: () => void };

export function MessageInput({ ticket, replyTo, onCancelReply }: Props) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [sign, setSign] = useState(readSign);
  const [recorder, setRecorder] = useState<RecorderState>('idle');
  const fileRef = useRef<HTMLInputElement | null>(null);
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const enabled = ticket.status === 'open';
  // The suggestions show while the text starts with '/', unless Escape closed them for this text.
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const recording = recorder !== 'idle';
  const quickSearch = enabled && !recording && dismissedFor !== text ? quickAnswerSearch(text) : null;
  const { answers, isPending: answersPending } = useQuickAnswers(quickSearch);
  const [highlight, setHighlight] = useState(0);
  const highlighted = answers.length ? Math.min(highlight, answers.length - 1) : -1;
  const highlightedAnswer = answers[highlighted];

  const afterSend = (messages: TMessage[]) => {
    for (const message of messages) saveMessageInCache(queryClient, message);
    onCancelReply();
  };

  /**
   * Runs one send; a reply stored but not sent shows in the chat with Retry, so it leaves the
   * input. True when the reply left (sent or stored).
   */
  const runSend = async (send: () => Promise<TMessage[]>): Promise<boolean> => {
    setSending(true);
    try {
      afterSend(await send());
      setText('');
      return true;
    } catch (error) {
      const stored = isStoredFailure(error);
      if (stored) {
        setText('');
        onCancelReply();
      }
      toastError(error);
      return stored;
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  };

  const sendText = async () => {
    if (!enabled || sending || text.trim() === '') return;
    const body = sign && user ? signBody(text, user.name) : text;
    await runSend(() => sendTextMessage(ticket.id, body, replyTo?.id));
  };

  const attachments = usePendingFiles(enabled);
  const sendFiles = async (caption: string) => {
    const files = attachments.files;
    if (await runSend(() => sendMediaMessage(ticket.id, files, caption.trim(), replyTo?.id))) attachments.sent(files);
  };

  const sendAudio = async (file: File) => {
    try {
      afterSend(await sendMediaMessage(ticket.id, [file], '', replyTo?.id));
    } catch (error) {
      toastError(error);
    }
  };

  const insertAtCursor = (insert: string) => {
    const input = inputRef.current;
    const start = input?.selectionStart ?? text.length;
    const end = input?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + insert + text.slice(end));
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + insert.length, start + insert.length);
    });
  };

  // The same variables the server fills in greetings and farewells, filled for this ticket.
  const pickQuickAnswer = (answer: TQuickAnswer) => {
    setText(
      renderVariables(answer.message, {
        name: ticket.contact.name,
        user: user?.name ?? '',
        ticketId: ticket.id,
        queue: ticket.queue?.name ?? '',
        connection: ticket.whatsapp.name,
      }),
    );
    inputRef.current?.focus();
  };

  const toggleSign = (checked: boolean) => {
    setSign(checked);
    try {
      localStorage.setItem(SIGN_STORAGE_KEY, String(checked));
    } catch {
      // Private mode: the choice holds until the page reloads.
    }
  };

  const changeText = (value: string) => {
    setText(value);
    setHighlight(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement | HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (quickSearch !== null) {
      // The open suggestions take the keys: a bare '/shortcut' is never sent by Enter.
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissedFor(text);
        return;
      }
      if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && answers.length) {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlight((highlighted + step + answers.length) % answers.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || (event.key === 'Tab' && highlightedAnswer)) {
        event.preventDefault();
        if (highlightedAnswer) pickQuickAnswer(highlightedAnswer);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void sendText();
    }
  };

  return (
    <Box
      sx={{ position: 'relative', borderTop: 1, borderColor: 'divider', bgcolor: '#F0F2F5', px: 1, py: 1 }}
      onDragOver={(event) => event.dataTransfer.types.includes('Files') && event.preventDefault()}
      onDrop={attachments.drop}
      data-testid="message-input-bar"
    >
      {attachments.files.length ? (
        <AttachmentsPreview
          key={attachments.round}
          files={attachments.files}
          // While a text is being sent, the input still holds it: that text is on its way and must
          // not go out again as the picture's caption.
          caption={sending ? '' : text}
          sending={sending}
          onRemove={attachments.remove}
          onCancel={attachments.clear}
          onSend={(caption) => void sendFiles(caption)}
        />
      ) : null}
      {quickSearch !== null ? <QuickAnswerSuggestions answers={answers} isPending={answersPending} highlighted={highlighted} onHighlight={setHighlight} onPick={pickQuickAnswer} /> : null}
      {replyTo && enabled ? (
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, px: 1, py: 0.5, borderLeft: 4, borderColor: 'primary.main', bgcolor: 'background.paper', borderRadius: 1 }}
          data-testid="reply-preview"
        >
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
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.25 }}>
        {recording ? null : (
          <>
            <EmojiPickerButton disabled={!enabled || sending} onPick={insertAtCursor} />
            <input ref={fileRef} type="file" multiple hidden onChange={attachments.pick} data-testid="message-file" />
            <IconButton disabled={!enabled || sending} onClick={() => fileRef.current?.click()} aria-label={t('chat.attach')} data-testid="message-attach">
              <AttachFile />
            </IconButton>
            <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
              <InputBase
                inputRef={inputRef}
                value={text}
                onChange={(event) => changeText(event.target.value)}
                onKeyDown={onKeyDown}
                onPaste={attachments.paste}
                disabled={!enabled}
                placeholder={enabled ? t('chat.inputPlaceholder') : ticket.status === 'pending' ? t('ticketStates.waitingPlaceholder') : t('ticketStates.resolvedPlaceholder')}
                multiline
                maxRows={LIMITS.inputMaxLines}
                sx={{ bgcolor: 'background.paper', borderRadius: 3, px: 2, py: 1, fontSize: 15 }}
                inputProps={{
                  'data-testid': 'message-input',
                  'aria-label': t('chat.inputPlaceholder'),
                  'aria-autocomplete': 'list',
                  'aria-controls': quickSearch !== null && answers.length ? QUICK_ANSWERS_LIST_ID : undefined,
                  'aria-activedescendant': quickSearch !== null && highlightedAnswer ? quickAnswerOptionId(highlightedAnswer.id) : undefined,
                }}
              />
            </Box>
          </>
        )}
        {recording ? (
          <Box sx={{ flex: 1 }} />
        ) : (
          <IconButton color="primary" disabled={!enabled || sending || text.trim() === ''} onClick={() => void sendText()} aria-label={t('chat.send')} data-testid="message-send">
            <Send />
          </IconButton>
        )}
        <AudioRecorder disabled={!enabled || sending} onStateChange={setRecorder} onSend={sendAudio} />
      </Box>
      {enabled && !recording ? (
        <FormControlLabel
          sx={{ ml: 0.5, mt: 0.25, '& .MuiFormControlLabel-label': { fontSize: 13, color: 'text.secondary' } }}
          control={
            <Switch
              size="small"
              checked={sign}
              onChange={(event) => toggleSign(event.target.checked)}
              slotProps={{ input: { 'aria-label': t('chat.sign'), 'data-testid': 'message-sign' } as object }}
            />
          }
          label={t('chat.sign')}
        />
      ) : null}
    </Box>
  );
}
