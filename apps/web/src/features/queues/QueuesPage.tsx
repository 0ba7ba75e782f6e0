import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
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
import type { TQueue } from '@zapdesk/shared/schemas';
import { removeFromArray } from '../../core/lists/liveCache';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { RowActions } from '../../core/ui/RowActions';
import { HIDE_ON_PHONE, TableEmptyRow, TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import { QueueModal } from './QueueModal';
import { QueueHoursButton } from '../business-hours/QueueHoursButton';
import { deleteQueue, queuesKey, useQueues } from './queues.api';

const COLUMNS = 4;

export default function QueuesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queues = useQueues();
  const [editing, setEditing] = useState<{ queue: TQueue | null } | null>(null);
  const [deleting, setDeleting] = useState<TQueue | null>(null);

  const confirmDelete = async (queue: TQueue) => {
    try {
      await deleteQueue(queue.id);
      removeFromArray(queryClient, queuesKey, queue.id);
      toast.success(t('queues.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  const rows = queues.data ?? [];

  return (
    <PageLayout
      title={t('queues.title')}
      testId="queues-page"
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ queue: null })} data-testid="add-queue">
          {t('queues.add')}
        </Button>
      }
    >
      <ScrollPaper testId="queues-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>{t('queues.name')}</TableCell>
              <TableCell>{t('queues.color')}</TableCell>
              <TableCell sx={HIDE_ON_PHONE}>{t('queues.greeting')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((queue) => (
              <TableRow key={queue.id} hover data-testid="queue-row">
                <TableCell>
                  <Typography variant="body2" fontWeight={600}>
                    {queue.name}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Stack direction="row" alignItems="center" gap={1}>
                    <Box sx={{ width: 22, height: 22, borderRadius: 1, bgcolor: queue.color, border: '1px solid rgba(0,0,0,0.12)' }} data-testid="queue-swatch" />
                    <Typography variant="body2" color="text.secondary" fontFamily="monospace">
                      {queue.color}
                    </Typography>
                  </Stack>
                </TableCell>
                <TableCell sx={{ ...HIDE_ON_PHONE, maxWidth: 420 }}>
                  <Typography variant="body2" color="text.secondary" noWrap title={queue.greetingMessage}>
                    {queue.greetingMessage || '—'}
                  </Typography>
                </TableCell>
                <TableCell align="right">
                  <RowActions testId="queue" onEdit={() => setEditing({ queue })} onDelete={() => setDeleting(queue)}>
                    <QueueHoursButton queue={queue} />
                  </RowActions>
                </TableCell>
              </TableRow>
            ))}
            {queues.isPending ? <TableRowsSkeleton columns={COLUMNS} /> : null}
            {!queues.isPending && rows.length === 0 ? <TableEmptyRow colSpan={COLUMNS} hint={t('queues.emptyHint')} /> : null}
          </TableBody>
        </Table>
      </ScrollPaper>
      {editing ? <QueueModal queue={editing.queue} onClose={() => setEditing(null)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('queues.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        {t('queues.deleteMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}
