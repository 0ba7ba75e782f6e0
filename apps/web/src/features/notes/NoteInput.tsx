/**
 * The composer in 'Nota interna' mode: a yellow input whose text only the team sees. '@' opens
 * the list of colleagues; each one picked (and still named in the text when saving) is mentioned.
 */
import LockOutlined from '@mui/icons-material/LockOutlined';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TTicket } from '@zapdesk/shared/messaging';
import { useAuth } from '../../core/auth/AuthProvider';
import { toastError } from '../../core/ui/toastError';
import { saveMessageInCache } from '../tickets/tickets.api';
import { NOTE_BORDER, NOTE_COLOR } from './NoteBubble';
import { createNote, searchColleagues } from './notes.api';

/** The '@word' being typed right before the caret, if any. */
function mentionQuery(text: string, caret: number): { start: number; search: string } | null {
  const search = /(^|\s)@([\p{L}\p{N}._-]{0,30})$/u.exec(text.slice(0, caret))?.[2];
  return search === undefined ? null : { start: caret - search.length - 1, search };
}

export function NoteInput({ ticket }: { ticket: TTicket }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [picked, setPicked] = useState<Map<string, number>>(new Map());
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const query = dismissed === text ? null : mentionQuery(text, caret);
  const { data: found = [] } = useQuery({
    queryKey: ['mentionable', query?.search ?? ''],
    queryFn: () => searchColleagues(query?.search ?? ''),
    enabled: query !== null,
    staleTime: 30_000,
  });
  const colleagues = query ? found.filter((c) => c.id !== user?.id).slice(0, 8) : [];
  const selected = Math.min(highlight, colleagues.length - 1);

  const pick = (colleague: { id: number; name: string }) => {
    if (!query) return;
    const end = query.start + 1 + query.search.length;
    const next = `${text.slice(0, query.start)}@${colleague.name} ${text.slice(end)}`;
    const at = query.start + colleague.name.length + 2;
    setText(next);
    setCaret(at);
    setPicked((current) => new Map(current).set(colleague.name, colleague.id));
    requestAnimationFrame(() => inputRef.current?.setSelectionRange(at, at));
    inputRef.current?.focus();
  };

  const save = async () => {
    const body = text.trim();
    if (!body || saving) return;
    const mentionUserIds = [...picked].filter(([name]) => body.includes(`@${name}`)).map(([, id]) => id);
    setSaving(true);
    try {
      const note = await createNote(ticket.id, body, mentionUserIds);
      saveMessageInCache(queryClient, note);
      setText('');
      setPicked(new Map());
      toast.success(mentionUserIds.length ? t('notes.savedMentioned', { count: mentionUserIds.length }) : t('notes.saved'));
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (colleagues.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setHighlight((h) => (h + (event.key === 'ArrowDown' ? 1 : colleagues.length - 1)) % colleagues.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        const colleague = colleagues[selected];
        if (colleague) pick(colleague);
        return;
      }
      if (event.key === 'Escape') {
        setDismissed(text);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void save();
    }
  };

  return (
    <Box sx={{ position: 'relative', bgcolor: NOTE_COLOR, borderTop: 2, borderColor: NOTE_BORDER, px: 1, py: 1 }} data-testid="note-input">
      {colleagues.length > 0 ? (
        <Paper elevation={6} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, maxWidth: 360, mb: 0.5, zIndex: 2 }}>
          <Typography variant="caption" color="text.secondary" sx={{ px: 2, pt: 1, display: 'block' }}>
            {t('notes.colleagues')}
          </Typography>
          <List dense role="listbox" aria-label={t('notes.colleagues')} data-testid="mention-options">
            {colleagues.map((colleague, i) => (
              <ListItemButton
                key={colleague.id}
                role="option"
                aria-selected={i === selected}
                selected={i === selected}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(colleague)}
                data-testid="mention-option"
              >
                @{colleague.name}
              </ListItemButton>
            ))}
          </List>
        </Paper>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
        <LockOutlined sx={{ color: '#8A6D00', mb: 1.25, ml: 0.5 }} />
        <InputBase
          inputRef={inputRef}
          multiline
          maxRows={5}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setCaret(event.target.selectionStart ?? event.target.value.length);
            setHighlight(0);
          }}
          onSelect={(event) => setCaret((event.target as HTMLTextAreaElement).selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          placeholder={t('notes.placeholder')}
          inputProps={{ 'aria-label': t('notes.placeholder'), 'data-testid': 'note-text' }}
          sx={{ flex: 1, bgcolor: '#FFFBE6', border: 1, borderColor: NOTE_BORDER, borderRadius: 3, px: 2, py: 1, fontSize: 15 }}
        />
        <IconButton onClick={() => void save()} disabled={!text.trim() || saving} aria-label={t('notes.save')} sx={{ color: '#8A6D00' }} data-testid="note-save">
          <Send />
        </IconButton>
      </Box>
      <Typography variant="caption" sx={{ display: 'block', color: '#8A6D00', mt: 0.5, ml: 4.5 }}>
        {t('notes.hint')}
      </Typography>
    </Box>
  );
}
