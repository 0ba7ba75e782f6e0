/** In the contact's panel: the SMS and calls sent to this contact through Vonage, newest first (hidden when none). */
import Call from '@mui/icons-material/Call';
import Sms from '@mui/icons-material/Sms';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { phoneSendState, phoneSendTime, usePhoneSends } from './phoneSends';

export function PhoneSendsCard({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const sends = usePhoneSends(contactId);
  const rows = sends.data?.sends ?? [];
  if (rows.length === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="contact-phone-sends">
      <Typography variant="subtitle2" gutterBottom>
        {t('phone.sent')}
      </Typography>
      {rows.map((send, index) => (
        <Box key={`${send.campaignId}-${index}`} data-testid="contact-phone-send">
          {index > 0 ? <Divider sx={{ my: 1 }} /> : null}
          <Typography variant="caption" color="text.secondary" component="div" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            {send.kind === 'call' ? <Call sx={{ fontSize: 14 }} /> : <Sms sx={{ fontSize: 14 }} />}
            {t(`phone.kind.${send.kind}`)} · {formatShortDateTime(phoneSendTime(send))} · {phoneSendState(t, send)}
          </Typography>
          <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
            {send.text}
          </Typography>
        </Box>
      ))}
    </Paper>
  );
}
