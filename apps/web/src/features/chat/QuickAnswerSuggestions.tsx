/**
 * Quick answers offered while the text starts with '/': the words after the slash search them
 * (GET /quickAnswers?searchParam=); picking one puts its message, variables filled, in the input.
 * The input drives the list from the keyboard (arrows move, Enter or Tab pick, Escape closes):
 * it keeps the focus and points at the highlighted answer (aria-activedescendant).
 */
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TQuickAnswer } from '@zapdesk/shared/schemas';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { fetchQuickAnswersPage } from '../quickAnswers/quickAnswers.api';

/** Short: the agent is typing and waits for the list. */
const SUGGESTION_DEBOUNCE_MS = 200;
export const QUICK_ANSWERS_LIST_ID = 'quick-answers-list';
export const quickAnswerOptionId = (id: number) => `quick-answer-${id}`;

export function quickAnswerSearch(text: string): string | null {
  return text.startsWith('/') ? text.slice(1).trim() : null;
}

/**
 * The answers for a search (none while closed). It asks once the typing pauses (not for the text
 * of the moment before), and keeps the answers on screen while the next ones load, so the list and
 * its highlighted answer do not blink empty at each key.
 */
export function useQuickAnswers(search: string | null): { answers: TQuickAnswer[]; isPending: boolean } {
  const debounced = useDebouncedValue(search ?? '', SUGGESTION_DEBOUNCE_MS);
  const { data, isPending } = useQuery({
    queryKey: ['quickAnswers', 'suggestions', debounced],
    queryFn: () => fetchQuickAnswersPage(debounced, 1),
    enabled: search !== null && debounced === search,
    placeholderData: keepPreviousData,
  });
  return { answers: search === null ? [] : (data?.items ?? []), isPending: search !== null && isPending };
}

type Props = { answers: TQuickAnswer[]; isPending: boolean; highlighted: number; onHighlight: (index: number) => void; onPick: (answer: TQuickAnswer) => void };

export function QuickAnswerSuggestions({ answers, isPending, highlighted, onHighlight, onPick }: Props) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLUListElement | null>(null);
  const current = answers[highlighted];
  useEffect(() => {
    if (current) document.getElementById(quickAnswerOptionId(current.id))?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  return (
    <Paper elevation={4} sx={{ position: 'absolute', left: 8, right: 8, bottom: '100%', mb: 1, maxHeight: 260, overflowY: 'auto', zIndex: 2 }} data-testid="quick-answers">
      <Typography variant="overline" color="text.secondary" sx={{ px: 2, pt: 1, display: 'block' }} id="quick-answers-title">
        {t('chat.quickAnswers')}
      </Typography>
      {!isPending && answers.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1.5 }}>
          {t('chat.noQuickAnswers')}
        </Typography>
      ) : (
        <List dense disablePadding ref={listRef} id={QUICK_ANSWERS_LIST_ID} role="listbox" aria-labelledby="quick-answers-title">
          {answers.map((answer, index) => (
            <ListItemButton
              key={answer.id}
              id={quickAnswerOptionId(answer.id)}
              role="option"
              aria-selected={index === highlighted}
              selected={index === highlighted}
              tabIndex={-1}
              // Keeps the focus in the input, so the pick lands where the agent types.
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => onHighlight(index)}
              onClick={() => onPick(answer)}
              data-testid="quick-answer-option"
            >
              <ListItemText primary={`/${answer.shortcut}`} secondary={answer.message} slotProps={{ primary: { fontWeight: 600 }, secondary: { noWrap: true } }} />
            </ListItemButton>
          ))}
        </List>
      )}
    </Paper>
  );
}
