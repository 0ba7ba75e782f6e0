/**
 * What a send carries: its text and its file. A line for the history's list (the text cut short,
 * the file's kind and name), and the whole of it for the detail (the text, the file previewed).
 */
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { MediaPreview, MediaTypeIcon } from './MediaPreview';

const kindOf = (campaign: TCampaign) => (campaign.mediaType === 'image' || campaign.mediaType === 'video' || campaign.mediaType === 'audio' ? campaign.mediaType : 'other');

/** One or two lines: the file's kind and name, then the text. */
export function CampaignContentLine({ campaign }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const hasMedia = campaign.mediaType !== null || campaign.mediaName !== null;
  return (
    <Stack gap={0.25} sx={{ minWidth: 0, maxWidth: 360 }} data-testid="campaign-content-line">
      {hasMedia ? (
        <Stack direction="row" alignItems="center" gap={0.5} sx={{ minWidth: 0 }}>
          <MediaTypeIcon kind={kindOf(campaign)} />
          <Typography variant="body2" noWrap title={campaign.mediaName ?? ''}>
            {`${t(`toolPages.library.types.${kindOf(campaign)}`)}${campaign.mediaName ? ` · ${campaign.mediaName}` : ''}`}
          </Typography>
        </Stack>
      ) : null}
      {campaign.message ? (
        <Typography
          variant="body2"
          color={hasMedia ? 'text.secondary' : 'text.primary'}
          sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', wordBreak: 'break-word' }}
        >
          {campaign.message}
        </Typography>
      ) : hasMedia ? null : (
        <Typography variant="body2" color="text.secondary">
          {t('toolPages.history.noText')}
        </Typography>
      )}
    </Stack>
  );
}

/** The detail's block: the text as sent and the file, previewed. */
export function CampaignContent({ campaign }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const hasMedia = campaign.mediaType !== null;
  if (!campaign.message && !hasMedia) return null;
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} data-testid="campaign-content">
      <Typography variant="overline" color="text.secondary">
        {t('toolPages.history.sentContent')}
      </Typography>
      <Stack gap={1.5}>
        {campaign.message ? (
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="campaign-content-text">
            {campaign.message}
          </Typography>
        ) : null}
        {hasMedia ? (
          <MediaPreview source={{ campaignId: campaign.id }} kind={kindOf(campaign)} name={campaign.mediaName ?? t(`toolPages.library.types.${kindOf(campaign)}`)} testId="campaign-content-media" />
        ) : null}
      </Stack>
    </Box>
  );
}
