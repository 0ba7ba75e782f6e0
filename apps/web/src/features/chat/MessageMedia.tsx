/** A message's media by type: picture, audio, video, document, location and contact cards, and the link card of a text. */
import Download from '@mui/icons-material/Download';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import LinkIcon from '@mui/icons-material/Link';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TMessage } from '@zapdesk/shared/messaging';
import { formatFileSize } from '../../core/ui/formatFileSize';
import { toastError } from '../../core/ui/toastError';
import { AudioPlayer } from './AudioPlayer';
import { startChat } from './chat.api';
import { LocationCard } from './LocationCard';
import { parseVcard } from './messageContent';

/** A shared contact: its name and number, and 'Conversar' to open a chat with it. */
function VcardCard({ body }: { body: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const card = parseVcard(body);
  const talk = async () => {
    setBusy(true);
    try {
      const ticketId = await startChat(card);
      await navigate(`/tickets/${ticketId}`);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ p: 1, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.04)', minWidth: 200 }} data-testid="message-vcard">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <PersonOutline color="primary" />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" fontWeight={600}>
            {card.name || t('chat.contactCard')}
          </Typography>
          {card.number ? (
            <Typography variant="caption" color="text.secondary">
              {card.number}
            </Typography>
          ) : null}
        </Box>
      </Box>
      {card.number ? (
        <Button fullWidth size="small" disabled={busy} onClick={() => void talk()} sx={{ mt: 0.5 }} data-testid="message-vcard-talk">
          {t('chat.talk')}
        </Button>
      ) : null}
    </Box>
  );
}

/** A text with an address gets a card naming the site and a 'Visualizar' button. */
export function LinkCard({ url }: { url: string }) {
  const { t } = useTranslation();
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Shown as typed.
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1, mb: 0.5, mr: 2, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.04)' }} data-testid="message-link">
      <LinkIcon color="action" />
      <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }}>
        {host}
      </Typography>
      <Button size="small" href={url} target="_blank" rel="noopener noreferrer" data-testid="message-link-open">
        {t('chat.view')}
      </Button>
    </Box>
  );
}

/**
 * A document: an icon, its name (cut short with an ellipsis, whole on hover) and its size; the
 * card downloads it under its name. Older messages without a stored name say 'Document'.
 */
function DocumentCard({ message }: { message: TMessage }) {
  const { t, i18n } = useTranslation();
  const name = message.mediaName || t('chat.document');
  const size = typeof message.mediaSize === 'number' ? formatFileSize(message.mediaSize, i18n.language) : '';
  const Icon = /\.pdf$/i.test(name) ? PictureAsPdfOutlined : InsertDriveFileOutlined;
  const card = { display: 'flex', alignItems: 'center', gap: 1, p: 1, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.05)', width: 260, maxWidth: '100%', color: 'inherit', textDecoration: 'none' };
  const content = (
    <>
      <Icon sx={{ fontSize: 32, color: Icon === PictureAsPdfOutlined ? '#D32F2F' : 'text.secondary', flexShrink: 0 }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" fontWeight={600} noWrap title={name} data-testid="message-document-name">
          {name}
        </Typography>
        {size ? (
          <Typography variant="caption" color="text.secondary" component="div" data-testid="message-document-size">
            {size}
          </Typography>
        ) : null}
      </Box>
      {message.mediaUrl ? <Download color="action" sx={{ flexShrink: 0 }} /> : null}
    </>
  );
  return (
    <Box data-testid="message-document">
      {message.mediaUrl ? (
        <Box
          component="a"
          href={message.mediaUrl}
          download={message.mediaName ?? ''}
          aria-label={size ? t('chat.downloadFileSized', { name, size }) : t('chat.downloadFile', { name })}
          sx={{ ...card, '&:hover': { bgcolor: 'rgba(0,0,0,0.09)' } }}
          data-testid="message-download"
        >
          {content}
        </Box>
      ) : (
        <Box sx={card}>{content}</Box>
      )}
    </Box>
  );
}

export function MessageMedia({ message, onMediaLoad }: { message: TMessage; onMediaLoad: () => void }) {
  const { t } = useTranslation();
  const { mediaType, mediaUrl } = message;

  if (mediaType === 'location') return <LocationCard body={message.body} />;
  if (mediaType === 'vcard') return <VcardCard body={message.body} />;
  if (mediaType === 'other') return <DocumentCard message={message} />;
  if (!mediaUrl) return null;
  if (mediaType === 'image') {
    return (
      <Link href={mediaUrl} target="_blank" rel="noopener noreferrer" sx={{ display: 'block' }}>
        <Box
          component="img"
          src={mediaUrl}
          alt={t('chat.image')}
          onLoad={onMediaLoad}
          sx={{ display: 'block', maxWidth: '100%', width: 280, maxHeight: 320, objectFit: 'cover', borderRadius: 1 }}
          data-testid="message-image"
        />
      </Link>
    );
  }
  if (mediaType === 'audio') return <AudioPlayer src={mediaUrl} />;
  return <Box component="video" controls src={mediaUrl} onLoadedMetadata={onMediaLoad} sx={{ display: 'block', maxWidth: '100%', width: 280, borderRadius: 1 }} data-testid="message-video" />;
}
