/**
 * /audit (admins): the audit log — when, who, what, on what, from where and how it ended — with
 * filters by period, user, action and result, and the same rows as zdg.csv. Read-only.
 */
import Download from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, AUDIT_OUTCOMES, auditActionGroup, type AuditOutcome, type TAuditEvent } from '@zapdesk/shared/audit';
import { isErrorCode } from '@zapdesk/shared/errors';
import { SETTING_KEYS } from '@zapdesk/shared/domain';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { PageLayout } from '../../core/ui/PageLayout';
import { HIDE_ON_PHONE, TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import { fetchAllUsers } from '../users/users.api';
import { auditKeys, downloadAuditCsv, fetchAudit, type AuditFilters } from './audit.api';

const COLUMNS = 6;
const OUTCOME_COLOR: Record<AuditOutcome, 'success' | 'warning' | 'error'> = { ok: 'success', denied: 'warning', failed: 'error' };
const COUNT_DETAILS = ['recipients', 'created', 'closed', 'deleted', 'imported', 'groups', 'added'] as const;

export default function AuditPage() {
  const { t } = useTranslation();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [userId, setUserId] = useState<number | ''>('');
  const [action, setAction] = useState('');
  const [outcome, setOutcome] = useState<AuditOutcome | ''>('');
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search.trim(), 400);
  const [exporting, setExporting] = useState(false);
  const users = useQuery({ queryKey: ['users', 'all'], queryFn: fetchAllUsers });
  const filters: AuditFilters = {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(userId !== '' ? { userId } : {}),
    ...(action ? { action } : {}),
    ...(outcome ? { outcome } : {}),
    ...(debouncedSearch ? { searchParam: debouncedSearch } : {}),
  };
  const list = useInfiniteQuery({
    queryKey: auditKeys.list(filters),
    queryFn: ({ pageParam }) => fetchAudit(filters, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const rows = list.data?.pages.flatMap((page) => page.events) ?? [];
  const count = list.data?.pages[0]?.count;

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(filters);
      toast.success(t('audit.exported'));
    } catch (error) {
      toastError(error);
    } finally {
      setExporting(false);
    }
  };

  const who = (e: TAuditEvent): string => {
    if (e.actorKind === 'apiToken') return t('audit.apiToken', { name: e.tokenName ?? e.actorName });
    if (e.actorKind === 'anonymous') return e.actorName ? t('audit.triedAs', { name: e.actorName }) : t('audit.unknownActor');
    return e.actorName;
  };

  const target = (e: TAuditEvent): string => {
    if (!e.targetType) return '';
    const kind = t(`audit.targets.${e.targetType}`);
    if (e.targetType === 'setting' && e.targetId) {
      const key = SETTING_KEYS.find((k) => k === e.targetId);
      return `${kind}: ${key ? t(`settings.keys.${key}.label`) : e.targetId}`;
    }
    if (e.targetName) return `${kind}: ${e.targetName}${e.targetId && /^\d+$/.test(e.targetId) ? ` (#${e.targetId})` : ''}`;
    return e.targetId ? `${kind} #${e.targetId}` : kind;
  };

  const facts = (e: TAuditEvent): string =>
    [
      ...COUNT_DETAILS.flatMap((key) => (typeof e.detail[key] === 'number' ? [t(`audit.details.${key}`, { count: e.detail[key] })] : [])),
      ...(typeof e.detail.role === 'string' ? [t('audit.details.role', { name: e.detail.role })] : []),
      ...(e.detail.passwordSet === true ? [t('audit.details.passwordSet')] : []),
    ].join(' · ');

  const result = (e: TAuditEvent) => {
    const label = e.outcome === 'ok' ? t('audit.outcomes.ok') : t('audit.withCode', { outcome: t(`audit.outcomes.${e.outcome}`), code: e.statusCode });
    const code = typeof e.detail.error === 'string' && isErrorCode(e.detail.error) ? e.detail.error : undefined;
    const chip = <Chip size="small" variant="outlined" color={OUTCOME_COLOR[e.outcome]} label={label} data-testid="audit-outcome" />;
    return code ? <Tooltip title={t(`backendErrors.${code}`)}>{chip}</Tooltip> : chip;
  };

  return (
    <PageLayout
      title={t('menu.audit')}
      subtitle={t('audit.subtitle')}
      testId="audit-page"
      actions={
        <Button variant="outlined" startIcon={<Download />} onClick={() => void exportCsv()} disabled={exporting} data-testid="audit-export">
          {t('audit.export')}
        </Button>
      }
    >
      <Stack sx={{ overflowY: 'auto', minHeight: 0, gap: 2, pb: 2, '& > *': { flexShrink: 0 } }}>
        {/* The top padding keeps the fields' floating labels inside the scrolling area. */}
        <Stack direction={{ xs: 'column', md: 'row' }} gap={1.5} flexWrap="wrap" sx={{ pt: 1 }}>
          <TextField
            type="date"
            size="small"
            label={t('audit.from')}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-from' } }}
          />
          <TextField
            type="date"
            size="small"
            label={t('audit.to')}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'audit-to' } }}
          />
          <TextField
            select
            size="small"
            label={t('audit.user')}
            value={userId}
            onChange={(e) => setUserId(e.target.value === '' ? '' : Number(e.target.value))}
            sx={{ minWidth: 180 }}
            data-testid="audit-user"
          >
            <MenuItem value="">{t('audit.all')}</MenuItem>
            {(users.data ?? []).map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('audit.action')}
            value={action}
            onChange={(e) => setAction(e.target.value)}
            sx={{ minWidth: 240 }}
            data-testid="audit-action"
            slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 420 } } } } } }}
          >
            <MenuItem value="">{t('audit.all')}</MenuItem>
            {AUDIT_ACTION_GROUPS.flatMap((group) => [
              <ListSubheader key={`h-${group}`}>{t(`audit.groups.${group}`)}</ListSubheader>,
              <MenuItem key={group} value={group} data-value={group}>
                {t('audit.allOf', { group: t(`audit.groups.${group}`) })}
              </MenuItem>,
              ...AUDIT_ACTIONS.filter((a) => auditActionGroup(a) === group).map((a) => (
                <MenuItem key={a} value={a} data-value={a} sx={{ pl: 4 }}>
                  {t(`audit.actions.${a}`)}
                </MenuItem>
              )),
            ])}
          </TextField>
          <TextField
            select
            size="small"
            label={t('audit.outcome')}
            value={outcome}
            onChange={(e) => setOutcome(AUDIT_OUTCOMES.find((o) => o === e.target.value) ?? '')}
            sx={{ minWidth: 150 }}
            data-testid="audit-outcome-filter"
          >
            <MenuItem value="">{t('audit.all')}</MenuItem>
            {AUDIT_OUTCOMES.map((o) => (
              <MenuItem key={o} value={o}>
                {t(`audit.outcomes.${o}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={t('audit.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            sx={{ minWidth: 220 }}
            slotProps={{ htmlInput: { 'data-testid': 'audit-search' } }}
          />
        </Stack>
        {count !== undefined ? (
          <Typography variant="body2" color="text.secondary" data-testid="audit-count">
            {t('audit.count', { count })}
          </Typography>
        ) : null}
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="audit-table">
            <TableHead>
              <TableRow>
                <TableCell>{t('audit.when')}</TableCell>
                <TableCell>{t('audit.who')}</TableCell>
                <TableCell>{t('audit.action')}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{t('audit.target')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('audit.where')}</TableCell>
                <TableCell>{t('audit.outcome')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((e) => (
                <TableRow key={e.id} data-testid="audit-row" data-action={e.action}>
                  <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{formatShortDateTime(e.at)}</TableCell>
                  <TableCell>{who(e)}</TableCell>
                  <TableCell>
                    <Typography variant="body2">{t(`audit.actions.${e.action}`)}</Typography>
                    {facts(e) ? (
                      <Typography variant="caption" color="text.secondary">
                        {facts(e)}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell sx={HIDE_ON_PHONE}>{target(e)}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, fontVariantNumeric: 'tabular-nums' }}>
                    <Tooltip title={e.userAgent}>
                      <span>{e.ip}</span>
                    </Tooltip>
                  </TableCell>
                  <TableCell>{result(e)}</TableCell>
                </TableRow>
              ))}
              {list.isPending ? <TableRowsSkeleton columns={COLUMNS} /> : null}
              {!list.isPending && rows.length === 0 ? (
                <TableRow data-testid="empty-state">
                  <TableCell colSpan={COLUMNS} sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>
                    {t('audit.empty')}
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </Paper>
        {list.hasNextPage ? (
          <Button onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
            {t('audit.more')}
          </Button>
        ) : null}
      </Stack>
    </PageLayout>
  );
}
