import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type Props = { onEdit?: () => void; onDelete?: (() => void) | undefined; children?: ReactNode; testId: string };

/** The edit and delete buttons at the end of a table row (plus any extra ones before them). */
export function RowActions({ onEdit, onDelete, children, testId }: Props) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" justifyContent="flex-end" gap={0.5}>
      {children}
      {onEdit ? (
        <Tooltip title={t('common.edit')}>
          <IconButton size="small" onClick={onEdit} aria-label={t('common.edit')} data-testid={`${testId}-edit`}>
            <EditOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      {onDelete ? (
        <Tooltip title={t('common.delete')}>
          <IconButton size="small" onClick={onDelete} aria-label={t('common.delete')} data-testid={`${testId}-delete`} sx={{ '&:hover': { color: 'error.main' } }}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
