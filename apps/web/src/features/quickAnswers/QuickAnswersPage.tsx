import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';
import type { TQuickAnswer } from '@zapdesk/shared/schemas';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { useInfiniteScroll } from '../../core/hooks/useInfiniteScroll';
import { removeFromPages } from '../../core/lists/liveCache';
import { usePagedList } from '../../core/lists/usePagedList';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { RowActions } from '../../core/ui/RowActions';
import { SearchField } from '../../core/ui/SearchField';
import { TableEmptyRow, TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import { QuickAnswerModal } from './QuickAnswerModal';
import { deleteQuickAnswer, fetchQuickAnswersPage, quickAnswersKeys } from './quickAnswers.api';

const COLUMNS = 3;

export default function QuickAnswersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search, LIMITS.searchDebounceMs);
  const list = usePagedList({ listKey: quickAnswersKeys.list, search: debouncedSearch, fetchPage: fetchQuickAnswersPage });
  const scroll = useInfiniteScroll({ hasNextPage: list.hasNextPage, isFetching: list.isFetching, fetchNextPage: list.fetchNextPage });
  const [editing, setEditing] = useState<{ quickAnswer: TQuickAnswer | null } | null>(null);
  const [deleting, setDeleting] = useState<TQuickAnswer | null>(null);

  const confirmDelete = async (answer: TQuickAnswer) => {
    try {
      await deleteQuickAnswer(answer.id);
      removeFromPages(queryClient, quickAnswersKeys.list, answer.id);
      toast.success(t('quickAnswers.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <PageLayout
      title={t('quickAnswers.title')}
      testId="quick-answers-page"
      actions={
        <>
          <SearchField value={search} onChange={setSearch} placeholder={t('quickAnswers.search')} />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ quickAnswer: null })} data-testid="add-quick-answer">
            {t('quickAnswers.add')}
          </Button>
        </>
      }
    >
      <ScrollPaper ref={scroll.containerRef} onScroll={scroll.onScroll} testId="quick-answers-list">
        <Table size="small" stickyHeader sx={{ tableLayout: 'fixed' }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: { xs: 120, sm: 220 } }}>{t('quickAnswers.shortcut')}</TableCell>
              <TableCell>{t('quickAnswers.message')}</TableCell>
              <TableCell align="right" sx={{ width: 110 }}>
                {t('common.actions')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((answer) => (
              <TableRow key={answer.id} hover data-testid="quick-answer-row">
                <TableCell>
                  <Chip size="small" label={`/${answer.shortcut}`} sx={{ fontFamily: 'monospace', maxWidth: '100%' }} />
                </TableCell>
                <TableCell>
                  <Typography variant="body2" color="text.secondary" noWrap title={answer.message}>
                    {answer.message}
                  </Typography>
                </TableCell>
                <TableCell align="right">
                  <RowActions testId="quick-answer" onEdit={() => setEditing({ quickAnswer: answer })} onDelete={() => setDeleting(answer)} />
                </TableCell>
              </TableRow>
            ))}
            {list.isPending || list.isFetchingNextPage ? <TableRowsSkeleton columns={COLUMNS} /> : null}
            {!list.isPending && list.items.length === 0 ? <TableEmptyRow colSpan={COLUMNS} search={debouncedSearch} hint={t('quickAnswers.emptyHint')} /> : null}
          </TableBody>
        </Table>
      </ScrollPaper>
      {editing ? <QuickAnswerModal quickAnswer={editing.quickAnswer} onClose={() => setEditing(null)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('quickAnswers.deleteTitle', { shortcut: deleting?.shortcut ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        {t('quickAnswers.deleteMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}
