/** The left column: Inbox (Working on / Queue) and Resolved tabs, and the admin-only 'All' switch. */
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminProfile, type TicketStatus } from '@zapdesk/shared/domain';
import { useAuth } from '../../core/auth/AuthProvider';
import { useTicketsQuery } from './tickets.api';
import { TicketsList } from './TicketsList';

type MainTab = 'inbox' | 'resolved';
type InboxTab = Extract<TicketStatus, 'open' | 'pending'>;

function CountLabel({ label, count, testId }: { label: string; count: number | undefined; testId: string }) {
  return (
    <Badge badgeContent={count ?? 0} color="secondary" max={999} sx={{ '& .MuiBadge-badge': { right: -14 } }} data-testid={testId} data-count={count ?? 0}>
      {label}
    </Badge>
  );
}

export function TicketsManager({ selectedId }: { selectedId: number | null }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const isAdmin = user ? isAdminProfile(user.profile) : false;
  const [tab, setTab] = useState<MainTab>('inbox');
  const [inboxTab, setInboxTab] = useState<InboxTab>('open');
  const [showAllChoice, setShowAll] = useState(true);
  const showAll = isAdmin && showAllChoice;

  const showWorkingOn = () => {
    setTab('inbox');
    setInboxTab('open');
  };

  const openQuery = useTicketsQuery('open', showAll);
  const pendingQuery = useTicketsQuery('pending', showAll);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="tickets-manager">
      <Box sx={{ display: 'flex', alignItems: 'center', borderBottom: 1, borderColor: 'divider', pr: 1 }}>
        <Tabs value={tab} onChange={(_, value: MainTab) => setTab(value)} variant="fullWidth" sx={{ flex: 1 }}>
          <Tab value="inbox" label={t('tickets.inbox')} data-testid="tab-inbox" />
          <Tab value="resolved" label={t('tickets.resolved')} data-testid="tab-resolved" />
        </Tabs>
        {isAdmin ? (
          <FormControlLabel
            sx={{ ml: 1, mr: 0 }}
            control={<Switch size="small" checked={showAllChoice} onChange={(event) => setShowAll(event.target.checked)} data-testid="tickets-show-all" />}
            label={t('tickets.showAll')}
            slotProps={{ typography: { variant: 'body2' } }}
          />
        ) : null}
      </Box>
      {tab === 'inbox' ? (
        <>
          <Tabs value={inboxTab} onChange={(_, value: InboxTab) => setInboxTab(value)} variant="fullWidth" sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 44 }}>
            <Tab value="open" sx={{ minHeight: 44 }} label={<CountLabel label={t('tickets.workingOn')} count={openQuery.data?.pages[0]?.count} testId="count-open" />} data-testid="tab-open" />
            <Tab value="pending" sx={{ minHeight: 44 }} label={<CountLabel label={t('tickets.queue')} count={pendingQuery.data?.pages[0]?.count} testId="count-pending" />} data-testid="tab-pending" />
          </Tabs>
          <TicketsList key={`${inboxTab}-${showAll}`} status={inboxTab} showAll={showAll} selectedId={selectedId} onAccepted={showWorkingOn} />
        </>
      ) : (
        <TicketsList key={`closed-${showAll}`} status="closed" showAll={showAll} selectedId={selectedId} onAccepted={showWorkingOn} />
      )}
    </Box>
  );
}
