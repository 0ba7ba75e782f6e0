/**
 * /ZDGHistorico: every campaign and tool send with what it carried (text, file), its kind,
 * connection, author, times and counts; filters; a campaign opened shows its text, its file and
 * each recipient; zdg.csv; and the import of the phone's message history (spec 1).
 */
import Download from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CAMPAIGN_STATUSES, isGroupActionKind, type TCampaign } from '@zapdesk/shared/campaigns';
import { useAuth } from '../../core/auth/AuthProvider';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { useWhatsapps } from '../whatsapps/whatsapps.api';
import { campaignsKeys, downloadHistoryCsv, fetchCampaigns, type CampaignFilters } from './campaigns.api';
import { CampaignProgress, doneCount } from './CampaignProgress';
import { CampaignContentLine } from './CampaignContent';
import { HistoryImportForm } from './HistoryImportForm';

export default function HistoryPage() {
  const { can } = useAuth();
  const { t } = useTranslation();
  const connections = useWhatsapps();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [status, setStatus] = useState<TCampaign['status'] | ''>('');
  const [number, setNumber] = useState('');
  const debouncedNumber = useDebouncedValue(number, 500);
  const [opened, setOpened] = useState<TCampaign | undefined>(undefined);
  const filters: CampaignFilters = {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(whatsappId !== '' ? { whatsappId } : {}),
    ...(status ? { status } : {}),
    ...(debouncedNumber.replace(/\D/g, '') ? { number: debouncedNumber.replace(/\D/g, '') } : {}),
  };
  const list = useInfiniteQuery({
    queryKey: campaignsKeys.list(filters),
    queryFn: ({ pageParam }) => fetchCampaigns(filters, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const rows = list.data?.pages.flatMap((page) => page.campaigns) ?? [];
  const counts = (c: TCampaign) => t('campaigns.history.counts', { sent: c.counts.sent, done: doneCount(c), total: c.total, failed: c.counts.failed + c.counts.unknown });

  return (
    <PageLayout
      title={t('menu.history')}
      subtitle={t('campaigns.history.subtitle')}
      testId="history-page"
      actions={
        <Button variant="outlined" startIcon={<Download />} onClick={() => void downloadHistoryCsv(filters).catch(toastError)} data-testid="history-export">
          {t('campaigns.history.export')}
        </Button>
      }
    >
      <Stack sx={{ overflowY: 'auto', minHeight: 0, gap: 2, pb: 2, '& > *': { flexShrink: 0 } }}>
        <Stack direction={{ xs: 'column', md: 'row' }} gap={1.5} flexWrap="wrap">
          <TextField type="date" size="small" label={t('campaigns.history.from')} value={from} onChange={(e) => setFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField type="date" size="small" label={t('campaigns.history.to')} value={to} onChange={(e) => setTo(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField
            select
            size="small"
            label={t('campaigns.form.connection')}
            value={whatsappId}
            onChange={(e) => setWhatsappId(e.target.value === '' ? '' : Number(e.target.value))}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">{t('campaigns.history.all')}</MenuItem>
            {(connections.data ?? []).map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('campaigns.history.status')}
            value={status}
            onChange={(e) => setStatus(CAMPAIGN_STATUSES.find((s) => s === e.target.value) ?? '')}
            sx={{ minWidth: 160 }}
            slotProps={{ htmlInput: { 'data-testid': 'history-status' } }}
          >
            <MenuItem value="">{t('campaigns.history.all')}</MenuItem>
            {CAMPAIGN_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`campaigns.status.${s}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField size="small" label={t('campaigns.history.number')} value={number} onChange={(e) => setNumber(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'history-number' } }} />
        </Stack>
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="history-table">
            <TableHead>
              <TableRow>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>#</TableCell>
                <TableCell>{t('toolPages.history.content')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('campaigns.history.kind')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('campaigns.form.connection')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('campaigns.history.author')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('campaigns.history.created')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('campaigns.history.finished')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('campaigns.history.progress')}</TableCell>
                <TableCell>{t('campaigns.history.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((c) => (
                <TableRow key={c.id} hover sx={{ cursor: 'pointer' }} onClick={() => setOpened(c)} data-testid="history-row" data-id={c.id}>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{c.id}</TableCell>
                  <TableCell>
                    <CampaignContentLine campaign={c} />
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                    {t(`campaigns.kinds.${c.kind}`)}
                    {c.audience === 'numbers' || isGroupActionKind(c.kind) ? '' : ` · ${t(`campaigns.audiences.${c.audience}`)}`}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{c.whatsappName || t(`campaigns.kinds.${c.kind}`)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{c.userName ?? (c.source === 'api' ? 'API' : '')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{formatShortDateTime(c.createdAt)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{c.finishedAt ? formatShortDateTime(c.finishedAt) : ''}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{counts(c)}</TableCell>
                  <TableCell>
                    {t(`campaigns.status.${c.status}`)}
                    {/* On a phone the progress goes under the state (its own column is left out). */}
                    <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                      {counts(c)}
                    </Typography>
                  </TableCell>
                </TableRow>
              ))}
              {rows.length === 0 && !list.isFetching ? (
                <TableRow>
                  <TableCell colSpan={9} sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>
                    {t('campaigns.history.empty')}
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </Paper>
        {list.hasNextPage ? (
          <Button onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
            {t('campaigns.progress.more')}
          </Button>
        ) : null}
        {can('history') ? <HistoryImportForm /> : null}
      </Stack>
      {/* Closing the detail only closes it: stopping a send is its own red button, asked again. */}
      <Dialog open={opened !== undefined} onClose={() => setOpened(undefined)} fullWidth maxWidth="md" data-testid="history-detail">
        <DialogContent>{opened ? <CampaignProgress initial={opened} showContent /> : null}</DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setOpened(undefined)} data-testid="history-detail-close">
            {t('toolPages.history.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </PageLayout>
  );
}
