/**
 * The left column of the Tickets screen: the Inbox, Group, Resolved and Search tabs, the New and
 * Close buttons, the queue filter and the admin-only 'All' switch, then the chosen list.
 */
import AddIcon from '@mui/icons-material/Add';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import MoveToInboxOutlined from '@mui/icons-material/MoveToInboxOutlined';
import SearchIcon from '@mui/icons-material/Search';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS, type TicketStatus } from '@zapdesk/shared/domain';
import { useAuth } from '../../core/auth/AuthProvider';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { SearchField } from '../../core/ui/SearchField';
import { CloseAllButton } from './CloseAllButton';
import { TicketsList } from './TicketsList';
import { TicketsQueueSelect } from './TicketsQueueSelect';
import { LabelFilterSelect } from '../labels/LabelFilterSelect';
import { useTicketsQuery, type TicketListFilter } from './ticketLists';
import { useTicketQueueFilter } from './useTicketQueueFilter';

// The modal brings the contact form (react-hook-form, zod): loaded when first opened, not with the list.
const NewTicketModal = lazy(() => import('./NewTicketModal').then((m) => ({ default: m.NewTicketModal })));

type MainTab = 'inbox' | 'group' | 'resolved' | 'search';
type ActiveStatus = Extract<TicketStatus, 'open' | 'pending'>;
type ResolvedTab = 'private' | 'group';

const SUB_TAB_SX = { borderBottom: 1, borderColor: 'divider', minHeight: 42, '& .MuiTab-root': { minHeight: 42, py: 0.5 } } as const;

function CountLabel({ label, filter, enabled, testId }: { label: string; filter: TicketListFilter; enabled: boolean; testId: string }) {
  // The same query as the list under the tab: the badge costs no request of its own.
  const count = useTicketsQuery(filter, { enabled }).data?.pages[0]?.count ?? 0;
  return (
    <Badge badgeContent={count} color="secondary" max={999} sx={{ '& .MuiBadge-badge': { right: -14 } }} data-testid={testId} data-count={count}>
      {label}
    </Badge>
  );
}

/**
 * How many tickets a search found, from the list's own query. Past the server's cap the count is a
 * lower bound, shown as such ('1.000+' in Portuguese, '1,000+' in English).
 */
function SearchCount({ filter, enabled }: { filter: TicketListFilter; enabled: boolean }) {
  const { t, i18n } = useTranslation();
  const first = useTicketsQuery(filter, { enabled }).data?.pages[0];
  if (!first) return null;
  const shown = `${new Intl.NumberFormat(i18n.language).format(first.count)}${first.countIsAtLeast ? '+' : ''}`;
  return (
    <Typography variant="caption" color="text.secondary" sx={{ px: 1.5, py: 0.5 }} data-testid="tickets-search-count" data-count={first.count} data-at-least={first.countIsAtLeast ? 'true' : 'false'}>
      {t('tickets.searchCount', { count: first.countIsAtLeast ? 2 : first.count, shown })}
    </Typography>
  );
}

export function TicketsManager({ selectedId }: { selectedId: number | null }) {
  const { t } = useTranslation();
  const { can } = useAuth();
  const [tab, setTab] = useState<MainTab>('inbox');
  const [inboxTab, setInboxTab] = useState<ActiveStatus>('open');
  const [groupTab, setGroupTab] = useState<ActiveStatus>('open');
  const [resolvedTab, setResolvedTab] = useState<ResolvedTab>('private');
  const [showAllChoice, setShowAll] = useState(true);
  const [searchInput, setSearchInput] = useState('');
  const [creating, setCreating] = useState(false);
  const search = useDebouncedValue(searchInput.trim().toLowerCase(), LIMITS.searchDebounceMs);
  const queueFilter = useTicketQueueFilter();
  const [labelIds, setLabelIds] = useState<number[]>([]);
  const mayShowAll = can('allQueues');
  const showAll = mayShowAll && showAllChoice;

  const base: TicketListFilter = { showAll, ...(queueFilter.queueIds ? { queueIds: queueFilter.queueIds } : {}), ...(labelIds.length ? { labelIds } : {}) };
  const active = (status: ActiveStatus, isGroup: boolean): TicketListFilter => ({ ...base, status, isGroup });
  const ready = queueFilter.ready;

  // The Inbox shows the tab that has tickets: 'Atendendo' while someone is being served, else
  // 'Aguardando' when customers wait (a ticket accepted from its chat brings 'Atendendo' back).
  // Never against a tab the user picked.
  const inboxChosen = useRef(false);
  const openCount = useTicketsQuery(active('open', false), { enabled: ready }).data?.pages[0]?.count;
  const pendingCount = useTicketsQuery(active('pending', false), { enabled: ready }).data?.pages[0]?.count;
  useEffect(() => {
    if (inboxChosen.current || openCount === undefined || pendingCount === undefined) return;
    setInboxTab(openCount === 0 && pendingCount > 0 ? 'pending' : 'open');
  }, [openCount, pendingCount]);
  const chooseInboxTab = (next: ActiveStatus) => {
    inboxChosen.current = true;
    setInboxTab(next);
  };

  const onAccepted = useCallback(() => {
    inboxChosen.current = true;
    if (tab === 'group') setGroupTab('open');
    else {
      setTab('inbox');
      setInboxTab('open');
    }
  }, [tab]);

  const onSearchChange = (value: string) => {
    setSearchInput(value);
    // Emptying the search returns to the Inbox.
    if (value === '') setTab('inbox');
  };

  const subTabs = (group: boolean) => {
    const value = group ? groupTab : inboxTab;
    const prefix = group ? 'group-' : '';
    return (
      <Tabs value={value} onChange={(_, next: ActiveStatus) => (group ? setGroupTab(next) : chooseInboxTab(next))} variant="fullWidth" sx={SUB_TAB_SX}>
        <Tab value="open" label={<CountLabel label={t('tickets.workingOn')} filter={active('open', group)} enabled={ready} testId={`count-${prefix}open`} />} data-testid={`tab-${prefix}open`} />
        <Tab
          value="pending"
          label={<CountLabel label={t('tickets.queue')} filter={active('pending', group)} enabled={ready} testId={`count-${prefix}pending`} />}
          data-testid={`tab-${prefix}pending`}
        />
      </Tabs>
    );
  };

  let content: ReactNode;
  if (tab === 'inbox' || tab === 'group') {
    const group = tab === 'group';
    const status = group ? groupTab : inboxTab;
    const filter = active(status, group);
    content = (
      <>
        {subTabs(group)}
        <TicketsList key={JSON.stringify(filter)} filter={filter} name={`${group ? 'group-' : ''}${status}`} selectedId={selectedId} enabled={ready} onAccepted={onAccepted} />
      </>
    );
  } else if (tab === 'resolved') {
    const filter: TicketListFilter = { ...base, status: 'closed', isGroup: resolvedTab === 'group' };
    content = (
      <>
        <Tabs value={resolvedTab} onChange={(_, next: ResolvedTab) => setResolvedTab(next)} variant="fullWidth" sx={SUB_TAB_SX}>
          <Tab value="private" label={t('tickets.privateChats')} data-testid="tab-closed-private" />
          <Tab value="group" label={t('tickets.groupChats')} data-testid="tab-closed-group" />
        </Tabs>
        <TicketsList key={JSON.stringify(filter)} filter={filter} name={resolvedTab === 'group' ? 'group-closed' : 'closed'} selectedId={selectedId} enabled={ready} onAccepted={onAccepted} />
      </>
    );
  } else {
    const filter: TicketListFilter = { ...base, search };
    content = (
      <>
        <Box sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}>
          <SearchField fullWidth autoFocus value={searchInput} onChange={onSearchChange} placeholder={t('tickets.searchPlaceholder')} testId="tickets-search-input" />
        </Box>
        {search ? (
          <>
            <SearchCount filter={filter} enabled={ready} />
            <TicketsList key={JSON.stringify(filter)} filter={filter} name="search" selectedId={selectedId} enabled={ready} onAccepted={onAccepted} />
          </>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="tickets-search-hint">
            {t('tickets.searchHint')}
          </Typography>
        )}
      </>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="tickets-manager">
      <Tabs
        value={tab}
        onChange={(_, value: MainTab) => setTab(value)}
        variant="fullWidth"
        sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 56, '& .MuiTab-root': { minHeight: 56, minWidth: 0, px: 0.5, py: 0.75, fontSize: 12, lineHeight: 1.2 } }}
      >
        <Tab value="inbox" icon={<MoveToInboxOutlined fontSize="small" />} label={t('tickets.inbox')} data-testid="tab-inbox" />
        <Tab value="group" icon={<GroupsOutlined fontSize="small" />} label={t('tickets.groups')} data-testid="tab-group" />
        <Tab value="resolved" icon={<CheckCircleOutline fontSize="small" />} label={t('tickets.resolved')} data-testid="tab-resolved" />
        <Tab value="search" icon={<SearchIcon fontSize="small" />} label={t('tickets.search')} data-testid="tab-search" />
      </Tabs>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, px: 1, py: 1, borderBottom: 1, borderColor: 'divider', '& > .MuiButton-root': { flexShrink: 0 } }}>
        <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} data-testid="tickets-new">
          {t('tickets.new')}
        </Button>
        <CloseAllButton />
        <Box sx={{ flex: 1 }} />
        <TicketsQueueSelect filter={queueFilter} />
        <LabelFilterSelect value={labelIds} onChange={setLabelIds} testId="tickets-label-filter" />
        {mayShowAll ? (
          <FormControlLabel
            sx={{ ml: 0, mr: 0, flexShrink: 0 }}
            control={<Switch size="small" checked={showAllChoice} onChange={(event) => setShowAll(event.target.checked)} data-testid="tickets-show-all" />}
            label={t('tickets.showAll')}
            slotProps={{ typography: { variant: 'body2' } }}
          />
        ) : null}
      </Box>
      {content}
      {creating ? (
        <Suspense fallback={null}>
          <NewTicketModal
            onClose={() => setCreating(false)}
            onCreated={() => {
              setTab('inbox');
              chooseInboxTab('open');
            }}
          />
        </Suspense>
      ) : null}
    </Box>
  );
}
