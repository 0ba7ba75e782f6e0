/**
 * /ZDGGroups: the group tools' six tabs for a chosen connection. The groups are read from the
 * phone (and again on demand); an action runs on the server one group at a time, and its
 * progress, group by group, shows below the form and in the send history.
 */
import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { ApiError } from '../../core/api/ApiError';
import { PageLayout } from '../../core/ui/PageLayout';
import { errorText } from '../../core/ui/toastError';
import { CampaignProgress } from '../campaigns/CampaignProgress';
import { ConnectionSelect, useChosenConnection } from '../whatsapps/ConnectionSelect';
import { CreateGroupForm } from './CreateGroupForm';
import { GroupActionForm } from './GroupActionForm';
import { GroupPicker } from './GroupPicker';
import { fetchGroups, groupsKeys } from './groups.api';

const TABS = ['update', 'create', 'open', 'close', 'message', 'participants'] as const;
type GroupTab = (typeof TABS)[number];

export default function GroupsPage() {
  const { t } = useTranslation();
  const { whatsappId, choose, connections } = useChosenConnection();
  const [tab, setTab] = useState<GroupTab>('update');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [started, setStarted] = useState<TCampaign[]>([]);
  const groups = useQuery({
    queryKey: groupsKeys.list(whatsappId ?? 0),
    queryFn: () => fetchGroups(whatsappId ?? 0),
    enabled: whatsappId !== undefined,
    staleTime: Infinity,
    retry: false,
  });
  const all = useMemo(() => groups.data?.groups ?? [], [groups.data]);
  const chosen = all.filter((g) => selected.has(g.id));
  const participantsUpTo = chosen.reduce((sum, g) => sum + Math.max(0, g.size - 1), 0);

  const refresh = async () => {
    const result = await groups.refetch();
    if (result.isSuccess) toast.success(t('groupTools.refreshed', { count: result.data.groups.length }), { toastId: 'groups-refreshed' });
  };

  const onStarted = (campaign: TCampaign) => {
    setStarted((previous) => [campaign, ...previous]);
    toast.success(t('groupTools.started', { count: campaign.total }));
  };

  // A finished action changed names, descriptions or settings: the list is read again from the phone.
  const onFinished = useCallback(
    (campaign: TCampaign) => {
      void groups.refetch();
      if (campaign.status === 'completed') toast.success(t('feedback.groupActionDone', { count: campaign.counts.sent }), { toastId: `group-action-${campaign.id}` });
    },
    [groups, t],
  );

  return (
    <PageLayout
      title={t('menu.groups')}
      subtitle={t('groupTools.subtitle')}
      testId="groups-page"
      actions={
        <Stack direction={{ xs: 'column', sm: 'row' }} gap={1.5} alignItems={{ sm: 'center' }}>
          <ConnectionSelect
            size="small"
            whatsappId={whatsappId}
            connections={connections}
            onChange={(id) => {
              choose(id);
              setSelected(new Set());
            }}
            testId="groups-connection"
          />
          <Button
            variant="outlined"
            startIcon={<Refresh />}
            onClick={() => void refresh()}
            disabled={whatsappId === undefined || groups.isFetching}
            sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            data-testid="groups-refresh"
          >
            {t('groupTools.refresh')}
          </Button>
        </Stack>
      }
    >
      <Paper variant="outlined" sx={{ flexShrink: 0 }}>
        <Tabs value={tab} onChange={(_event, value: GroupTab) => setTab(value)} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile aria-label={t('menu.groups')}>
          {TABS.map((value) => (
            <Tab key={value} value={value} label={t(`groupTools.tabs.${value}`)} data-testid={`group-tab-${value}`} />
          ))}
        </Tabs>
      </Paper>
      <Box sx={{ overflowY: 'auto', minHeight: 0, pb: 2 }}>
        {groups.isError ? (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="groups-error">
            {groups.error instanceof ApiError ? errorText(groups.error) : t('groupTools.loadFailed')}
          </Alert>
        ) : null}
        <Stack direction={{ xs: 'column', lg: 'row' }} gap={2} alignItems="flex-start">
          {tab === 'create' ? null : (
            <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, flex: 1, width: '100%', minWidth: 0 }}>
              <GroupPicker groups={all} selected={selected} onChange={setSelected} adminOnly={tab === 'open' || tab === 'close'} />
            </Paper>
          )}
          <Stack gap={2} sx={{ flex: 1, width: '100%', minWidth: 0 }}>
            <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
              {tab === 'create' ? (
                <CreateGroupForm
                  whatsappId={whatsappId}
                  onCreated={(name) => {
                    void groups.refetch();
                    toast.success(t('feedback.groupCreated', { name }));
                  }}
                />
              ) : (
                <GroupActionForm key={tab} tab={tab} whatsappId={whatsappId} groupIds={[...selected]} participantsUpTo={participantsUpTo} onStarted={onStarted} />
              )}
            </Paper>
            {started.map((campaign) => (
              <Paper key={campaign.id} variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
                <CampaignProgress initial={campaign} onFinished={onFinished} />
              </Paper>
            ))}
          </Stack>
        </Stack>
      </Box>
    </PageLayout>
  );
}
