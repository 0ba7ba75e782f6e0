/** One bulk page (text, media by URL, media by local path, voice note): the form, then the live progress of what it started. */
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { SendKind, TCampaign } from '@zapdesk/shared/campaigns';
import { PageLayout } from '../../core/ui/PageLayout';
import { CampaignForm } from './CampaignForm';
import { StartedCampaigns } from './SendFormParts';

const TITLES = { text: 'bulkText', mediaUrl: 'bulkMediaUrl', mediaPath: 'bulkMediaPath', voice: 'bulkAudio' } as const;

export function BulkPage({ kind }: { kind: SendKind }) {
  const { t } = useTranslation();
  const [started, setStarted] = useState<TCampaign[]>([]);

  return (
    <PageLayout title={t(`menu.${TITLES[kind]}`)} subtitle={t(`campaigns.pages.${kind}`)} testId={`bulk-page-${kind}`}>
      <Stack direction={{ xs: 'column', lg: 'row' }} gap={2} alignItems="flex-start" sx={{ overflowY: 'auto', minHeight: 0, pb: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 }, flex: 1, width: '100%', minWidth: 0 }}>
          <CampaignForm
            kind={kind}
            onCreated={(campaign, dropped) => {
              setStarted((list) => [campaign, ...list]);
              toast.success(t(campaign.status === 'scheduled' ? 'campaigns.form.scheduled' : 'campaigns.form.started', { count: campaign.total, duplicates: dropped.duplicates }));
            }}
          />
        </Paper>
        <StartedCampaigns campaigns={started} />
      </Stack>
    </PageLayout>
  );
}
