import InboxOutlined from '@mui/icons-material/InboxOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Placeholder rows while a page of the list loads. */
export function TableRowsSkeleton({ columns, rows = 3, avatar = false }: { columns: number; rows?: number; avatar?: boolean }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <TableRow key={row} data-testid="skeleton-row">
          {Array.from({ length: columns }, (_, column) => (
            <TableCell key={column}>{avatar && column === 0 ? <Skeleton variant="circular" width={36} height={36} /> : <Skeleton variant="text" />}</TableCell>
          ))}
        </TableRow>
      ))}
    </>
  );
}

/** The row shown when a list is empty: a hint, or 'no results' for a search. */
export function TableEmptyRow({ colSpan, search, hint }: { colSpan: number; search?: string; hint?: string }) {
  const { t } = useTranslation();
  const searching = Boolean(search);
  const Icon = searching ? SearchOffOutlined : InboxOutlined;
  return (
    <TableRow data-testid="empty-state">
      <TableCell colSpan={colSpan} sx={{ borderBottom: 'none' }}>
        <Box sx={{ py: 6, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
          <Icon sx={{ fontSize: 48, color: 'action.disabled' }} />
          <Typography variant="subtitle1" color="text.primary" fontWeight={600}>
            {searching ? t('list.emptySearch', { search }) : t('list.empty')}
          </Typography>
          <Typography variant="body2" textAlign="center">
            {searching ? t('list.emptySearchHint') : hint}
          </Typography>
        </Box>
      </TableCell>
    </TableRow>
  );
}

/** For columns that phones can do without. */
export const HIDE_ON_PHONE = { display: { xs: 'none', sm: 'table-cell' } } as const;
