/** One chat message: text, media by type, the quoted block, time, delivery icon and options menu. */
import AccessTime from '@mui/icons-material/AccessTime';
import Block from '@mui/icons-material/Block';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import Download from '@mui/icons-material/Download';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import ExpandMore from '@mui/icons-material/ExpandMore';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import LinkIcon from '@mui/icons-material/Link';
import PersonOutline from '@mui/icons-material/PersonOutline';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Place from '@mui/icons-material/Place';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TMessage } from '@zapdesk/shared/messaging';
import { formatTime } from '../../core/ui/formatDate';
import { formatFileSize } from '../../core/ui/formatFileSize';
import { toastError } from '../../core/ui/toastError';
import { AudioPlayer } from './AudioPlayer';
import { startChat } from './chat.api';
import { firstLink, parseLocation, parseVcard, whatsappSegments } from './messageContent';

type Props = {
  message: TMessage;
  /** Group chats name the sender of each incoming message. */
  showSender: boolean;
  onReply: (message: TMessage) => void;
  onDelete: (message: TMessage) => void;
  /** Sends again an own message whose send failed. */
  onRetry: (message: TMessage) => void;
  onMediaLoad: () => void;
};

const READ_COLOR = '#34B7F1';

/** An own message's state: waiting to be sent, not sent (with Retry), or its delivery ack. */
function SendState({ message, onRetry }: { message: TMessage; onRetry: (message: TMessage) => void }) {
  const { t } = useTranslation();
  if (message.sendStatus === 'failed') {
    return (
      <Box
        component="span"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
        data-testid="message-send-failed"
        title={t(`backendErrors.${message.sendError ?? 'ERR_SENDING_WAPP_MSG'}`, { defaultValue: message.sendError ?? '' })}
      >
        <ErrorOutline sx={{ fontSize: 16 }} color="error" />
        <Typography variant="caption" color="error" sx={{ fontSize: 11 }}>
          {t('chat.acks.failed')}
        </Typography>
        <Button size="small" color="error" onClick={() => onRetry(message)} sx={{ minWidth: 0, py: 0, px: 0.5, fontSize: 11, lineHeight: 1.6 }} data-testid="message-retry">
          {t('chat.retrySend')}
        </Button>
      </Box>
    );
  }
  if (message.sendStatus === 'queued')
    return <AccessTime sx={{ fontSize: 16, verticalAlign: 'middle' }} color="action" titleAccess={t('chat.acks.queued')} data-testid="message-ack" data-ack={0} data-queued="true" />;
  return <AckIcon ack={message.ack} />;
}

function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const sx = { fontSize: 16, verticalAlign: 'middle' };
  if (ack <= 0) return <AccessTime sx={sx} color="action" titleAccess={t('chat.acks.pending')} data-testid="message-ack" data-ack={ack} />;
  if (ack === 1) return <Done sx={sx} color="action" titleAccess={t('chat.acks.sent')} data-testid="message-ack" data-ack={ack} />;
  if (ack === 2) return <DoneAll sx={sx} color="action" titleAccess={t('chat.acks.delivered')} data-testid="message-ack" data-ack={ack} />;
  return <DoneAll sx={{ ...sx, color: READ_COLOR }} titleAccess={t('chat.acks.read')} data-testid="message-ack" data-ack={ack} />;
}

const SEGMENT_SX = { bold: { fontWeight: 700 }, italic: { fontStyle: 'italic' }, strike: { textDecoration: 'line-through' }, mono: { fontFamily: 'monospace' } } as const;

/** The body with WhatsApp's *bold*, _italic_, ~strike~ and ```monospace``` applied, as the contact sees it. */
function FormattedText({ body }: { body: string }) {
  return (
    <>
      {whatsappSegments(body).map((segment, index) =>
        segment.style === 'plain' ? (
          <Fragment key={index}>{segment.text}</Fragment>
        ) : (
          <Box key={index} component="span" sx={SEGMENT_SX[segment.style]}>
            {segment.text}
          </Box>
        ),
      )}
    </>
  );
}

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
function LinkCard({ url }: { url: string }) {
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

function MessageMedia({ message, onMediaLoad }: { message: TMessage; onMediaLoad: () => void }) {
  const { t } = useTranslation();
  const { mediaType, mediaUrl } = message;

  if (mediaType === 'location') {
    const location = parseLocation(message.body);
    return (
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.04)', minWidth: 220 }} data-testid="message-location">
        <Place color="error" />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {location.description}
          </Typography>
          {location.mapLink ? (
            <Link href={location.mapLink} target="_blank" rel="noopener noreferrer" variant="body2" data-testid="message-location-link">
              {t('chat.openMap')}
            </Link>
          ) : null}
        </Box>
      </Box>
    );
  }
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

export function MessageBubble({ message, showSender, onReply, onDelete, onRetry, onMediaLoad }: Props) {
  const { t } = useTranslation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const { fromMe } = message;
  // Media messages carry the file name or a caption in the body; location and vcard bodies are data.
  const caption = message.mediaType === 'location' || message.mediaType === 'vcard' ? '' : message.body;
  const showCaption = caption !== '';
  const linkUrl = message.mediaType === null ? firstLink(message.body) : null;

  return (
    <Box sx={{ display: 'flex', justifyContent: fromMe ? 'flex-end' : 'flex-start', mb: 0.75 }} data-testid="message" data-id={message.id} data-from-me={fromMe}>
      <Box
        sx={{
          position: 'relative',
          // The message column of the spec: at most 600px, however wide the chat.
          maxWidth: { xs: '85%', sm: 'min(70%, 600px)' },
          minWidth: 90,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          borderRadius: '8px',
          borderTopRightRadius: fromMe ? '2px' : '8px',
          borderTopLeftRadius: fromMe ? '8px' : '2px',
          bgcolor: fromMe ? '#DCF8C6' : '#FFFFFF',
          boxShadow: '0 1px 0.5px rgba(0,0,0,0.13)',
          '&:hover .message-menu-button': { opacity: 1 },
        }}
      >
        {!message.isDeleted ? (
          <IconButton
            size="small"
            className="message-menu-button"
            onClick={(event) => setMenuAnchor(event.currentTarget)}
            sx={{ position: 'absolute', top: 0, right: 0, opacity: { xs: 1, md: 0 }, p: 0.25, bgcolor: 'inherit' }}
            aria-label={t('chat.options')}
            data-testid="message-menu"
          >
            <ExpandMore fontSize="small" />
          </IconButton>
        ) : null}
        {showSender && message.contact ? (
          <Typography variant="caption" fontWeight={600} color="primary" component="div">
            {message.contact.name}
          </Typography>
        ) : null}
        {message.quotedMsg ? (
          <Box
            sx={{ borderLeft: 4, borderColor: message.quotedMsg.fromMe ? 'primary.main' : 'secondary.main', bgcolor: 'rgba(0,0,0,0.05)', borderRadius: 1, px: 1, py: 0.5, mb: 0.5, mr: 2 }}
            data-testid="message-quoted"
          >
            <Typography variant="caption" fontWeight={600} color={message.quotedMsg.fromMe ? 'primary' : 'secondary'} component="div">
              {message.quotedMsg.fromMe ? t('chat.you') : (message.quotedMsg.contact?.name ?? '')}
            </Typography>
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
            >
              {message.quotedMsg.body}
            </Typography>
          </Box>
        ) : null}
        {message.isDeleted ? (
          <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic', display: 'flex', alignItems: 'center', gap: 0.5, pr: 2 }} data-testid="message-deleted">
            <Block sx={{ fontSize: 16 }} />
            {t('chat.deletedMessage')}
          </Typography>
        ) : (
          <>
            {message.mediaType ? (
              <Box sx={{ mb: 0.5, pr: message.mediaType === 'image' || message.mediaType === 'video' ? 0 : 2 }}>
                <MessageMedia message={message} onMediaLoad={onMediaLoad} />
              </Box>
            ) : null}
            {linkUrl ? <LinkCard url={linkUrl} /> : null}
            {showCaption ? (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', pr: 2 }} data-testid="message-body">
                <FormattedText body={caption} />
              </Typography>
            ) : null}
          </>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 0.5, mt: 0.25 }}>
          {message.fromBot ? (
            <Typography variant="caption" color="text.secondary" sx={{ fontSize: 11, display: 'inline-flex', alignItems: 'center', gap: 0.25 }} data-testid="message-bot">
              <SmartToyOutlined sx={{ fontSize: 14 }} />
              {t('chat.botMessage')}
            </Typography>
          ) : null}
          {message.isEdited && !message.isDeleted ? (
            <Typography variant="caption" color="text.secondary" sx={{ fontSize: 11, fontStyle: 'italic' }} data-testid="message-edited">
              {t('chat.editedMessage')}
            </Typography>
          ) : null}
          <Typography variant="caption" color="text.secondary" sx={{ fontSize: 11 }} data-testid="message-time">
            {formatTime(message.createdAt)}
          </Typography>
          {fromMe && !message.isDeleted ? <SendState message={message} onRetry={onRetry} /> : null}
        </Box>
      </Box>
      <Menu
        anchorEl={menuAnchor}
        open={menuAnchor !== null}
        onClose={() => setMenuAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            onReply(message);
          }}
          data-testid="message-reply"
        >
          {t('chat.reply')}
        </MenuItem>
        {fromMe ? (
          <MenuItem
            onClick={() => {
              setMenuAnchor(null);
              onDelete(message);
            }}
            data-testid="message-delete"
          >
            {t('chat.delete')}
          </MenuItem>
        ) : null}
      </Menu>
    </Box>
  );
}
