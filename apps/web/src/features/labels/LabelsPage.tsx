/** 'Etiquetas': the admin's list of labels (name, colour), with how to add, edit and delete one. */
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
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
import type { TLabel } from '@zapdesk/shared/labels';
import { removeFromArray } from '../../core/lists/liveCache';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { RowActions } from '../../core/ui/RowActions';
import { TableEmptyRow, TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import { LabelChips } from './LabelChips';
import { LabelModal } from './LabelModal';
import { deleteLabel, labelsKey, useLabels } from './labels.api';

const COLUMNS = 2;

export default function LabelsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const labels = useLabels();
  const [editing, setEditing] = useState<{ label: TLabel | null } | null>(null);
  const [deleting, setDeleting] = useState<TLabel | null>(null);

  const confirmDelete = async (label: TLabel) => {
    try {
      await deleteLabel(label.id);
      removeFromArray(queryClient, labelsKey, label.id);
      toast.success(t('labels.deleted', { name: label.name }));
    } catch (error) {
      toastError(error);
    }
  };

  const rows = labels.data ?? [];
  return (
    <PageLayout
      title={t('labels.title')}
      subtitle={t('labels.subtitle')}
      testId="labels-page"
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ label: null })} data-testid="add-label">
          {t('labels.add')}
        </Button>
      }
    >
      <ScrollPaper testId="labels-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>{t('labels.name')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((label) => (
              <TableRow key={label.id} hover data-testid="label-row" data-label-id={label.id}>
                <TableCell>
                  <LabelChips labels={[label]} testId="label-row-chip" />
                  <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                    {label.color}
                  </Typography>
                </TableCell>
                <TableCell align="right">
                  <RowActions testId="label" onEdit={() => setEditing({ label })} onDelete={() => setDeleting(label)} />
                </TableCell>
              </TableRow>
            ))}
            {labels.isPending ? <TableRowsSkeleton columns={COLUMNS} /> : null}
            {!labels.isPending && rows.length === 0 ? <TableEmptyRow colSpan={COLUMNS} hint={t('labels.emptyHint')} /> : null}
          </TableBody>
        </Table>
      </ScrollPaper>
      {editing ? <LabelModal label={editing.label} onClose={() => setEditing(null)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('labels.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        {t('labels.deleteMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}
