/**
 * Quick answers offered while the text starts with '/': the words after the slash search them
 * (GET /quickAnswers?searchParam=); picking one puts its message, variables filled, in the input.
 */
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TQuickAnswer } from '@zapdesk/shared/schemas';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { fetchQuickAnswersPage } from '../quickAnswers/quickAnswers.api';

/** Short: the agent is typing and waits for the list. */
const SUGGESTION_DEBOUNCE_MS = 200;

export function quickAnswerSearch(text: string): string | null {
  return text.startsWith('/') ? text.slice(1).trim() : null;
}

export function QuickAnswerSuggestions({ search, onPick }: { search: string; onPick: (answer: TQuickAnswer) => void }) {
  const { t } = useTranslation();
  const debounced = useDebouncedValue(search, SUGGESTION_DEBOUNCE_MS);
  const { data, isPending } = useQuery({ queryKey: ['quickAnswers', 'suggestions', debounced], queryFn: () => fetchQuickAnswersPage(debounced, 1) });
  const answers = data?.items ?? [];
  return (
    <Paper elevation={4} sx={{ position: 'absolute', left: 8, right: 8, bottom: '100%', mb: 1, maxHeight: 260, overflowY: 'auto', zIndex: 2 }} data-testid="quick-answers">
      <Typography variant="overline" color="text.secondary" sx={{ px: 2, pt: 1, display: 'block' }}>
        {t('chat.quickAnswers')}
      </Typography>
      {!isPending && answers.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1.5 }}>
          {t('chat.noQuickAnswers')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {answers.map((answer) => (
            <ListItemButton
              key={answer.id}
              // Keeps the focus in the input, so the pick lands where the agent types.
              onMouseDown={(event) => event.preventDefault()}
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
