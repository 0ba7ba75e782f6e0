/**
 * The contact drawer, 320px: name, number as a tel: link, Edit contact, the extra
 * information and the SMS and calls the contact was sent. Docked beside the chat on wide screens, sliding over it on narrow ones.
 */
import Close from '@mui/icons-material/Close';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS, type Channel } from '@zapdesk/shared/domain';
import type { TContact } from '@zapdesk/shared/schemas';
import { initials } from '../../core/ui/initials';
import { ContactModal } from '../contacts/ContactModal';
import { PhoneSendsCard } from '../phone/PhoneSendsCard';
import { ContactLabels } from '../labels/ContactLabels';

type Props = { contact: TContact; channel: Channel; open: boolean; docked: boolean; onClose: () => void };

function ContactDetails({ contact, channel, onClose }: { contact: TContact; channel: Channel; onClose: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  return (
    <Box sx={{ width: LIMITS.contactDrawerWidth, maxWidth: '100vw', height: '100%', display: 'flex', flexDirection: 'column', bgcolor: '#F0F2F5' }} data-testid="contact-drawer">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1, py: 1, bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <IconButton onClick={onClose} aria-label={t('chat.closeDrawer')} data-testid="contact-drawer-close">
          <Close />
        </IconButton>
        <Typography fontWeight={600}>{t('chat.contactInfo')}</Typography>
      </Box>
      <Box sx={{ flex: 1, overflowY: 'auto', p: 1.5, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, textAlign: 'center' }}>
          <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 96, height: 96, fontSize: 36 }}>
            {initials(contact.name)}
          </Avatar>
          <Typography variant="h6" sx={{ wordBreak: 'break-word' }} data-testid="contact-drawer-name">
            {contact.name}
          </Typography>
          {channel === 'instagram' ? (
            // On Instagram the 'number' is the person's Instagram-scoped id: not something to dial.
            <Typography variant="body2" color="text.secondary" data-testid="contact-drawer-number">
              Instagram · {contact.number}
            </Typography>
          ) : (
            <Link href={`tel:+${contact.number}`} data-testid="contact-drawer-number">
              {contact.number}
            </Link>
          )}
          {contact.email ? (
            <Link href={`mailto:${contact.email}`} variant="body2">
              {contact.email}
            </Link>
          ) : null}
          <Button variant="outlined" size="small" onClick={() => setEditing(true)} data-testid="contact-drawer-edit">
            {t('chat.editContact')}
          </Button>
        </Paper>
        {contact.extraInfo.length > 0 ? (
          <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="contact-drawer-extra">
            <Typography variant="subtitle2" gutterBottom>
              {t('chat.extraInfo')}
            </Typography>
            {contact.extraInfo.map((info, index) => (
              <Box key={`${info.name}-${index}`}>
                {index > 0 ? <Divider sx={{ my: 1 }} /> : null}
                <Typography variant="caption" color="text.secondary" component="div">
                  {info.name}
                </Typography>
                <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                  {info.value}
                </Typography>
              </Box>
            ))}
          </Paper>
        ) : null}
        <ContactLabels contact={contact} />
        <PhoneSendsCard contactId={contact.id} />
      </Box>
      {editing ? <ContactModal contact={contact} onClose={() => setEditing(false)} /> : null}
    </Box>
  );
}

export function ContactDrawer({ contact, channel, open, docked, onClose }: Props) {
  if (docked) {
    return open ? (
      <Box sx={{ flexShrink: 0, borderLeft: 1, borderColor: 'divider', height: '100%' }}>
        <ContactDetails contact={contact} channel={channel} onClose={onClose} />
      </Box>
    ) : null;
  }
  return (
    // Above the app bar, which sits over the side menu.
    <Drawer anchor="right" open={open} onClose={onClose} sx={{ zIndex: (theme) => theme.zIndex.modal }}>
      <ContactDetails contact={contact} channel={channel} onClose={onClose} />
    </Drawer>
  );
}
