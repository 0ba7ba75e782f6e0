/**
 * An SMS or call to the chat's contact, in the chat at its time: a system-style note in the
 * middle, never a WhatsApp message (it was not sent there, and nothing here sends it there).
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { TPhoneSend } from '@zapdesk/shared/vonage';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { phoneSendFailed, phoneSendState, phoneSendTime } from './phoneSends';

export function PhoneSendBubble({ send }: { send: TPhoneSend }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', my: 0.75 }} data-testid="chat-phone-send" data-kind={send.kind}>
      <Box sx={{ maxWidth: { xs: '92%', sm: 'min(80%, 520px)' }, px: 1.5, py: 0.75, borderRadius: 2, bgcolor: '#FFF8E1', border: '1px solid #F3E2A9', boxShadow: '0 1px 0.5px rgba(0,0,0,0.08)' }}>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="chat-phone-send-text">
          <Box component="span" sx={{ fontWeight: 600 }}>
            {t(send.kind === 'call' ? 'chatPhone.call' : 'chatPhone.sms')}
          </Box>{' '}
          {send.text}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.25, display: 'flex', flexWrap: 'wrap', columnGap: 0.75 }}>
          <span>{formatShortDateTime(phoneSendTime(send))}</span>
          <Box component="span" sx={{ fontWeight: 600, color: phoneSendFailed(send) ? 'error.main' : 'text.secondary' }} data-testid="chat-phone-send-state">
            {phoneSendState(t, send)}
          </Box>
          <span>· {t('chatPhone.notWhatsapp')}</span>
        </Typography>
      </Box>
    </Box>
  );
}
