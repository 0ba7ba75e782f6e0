/** One chat message: text, media by type, the quoted block, time, delivery icon and options menu. */
import AccessTime from '@mui/icons-material/AccessTime';
import Block from '@mui/icons-material/Block';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMessage } from '@zapdesk/shared/messaging';
import { formatTime } from '../../core/ui/formatDate';
import { firstLink, whatsappSegments } from './messageContent';
import { LinkCard, MessageMedia } from './MessageMedia';
import { MessageReactions } from '../reactions/MessageReactions';

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

export function MessageBubble({ message, showSender, onReply, onDelete, onRetry, onMediaLoad }: Props) {
  const { t } = useTranslation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const { fromMe } = message;
  // Media messages carry the file name or a caption in the body; location and vcard bodies are data.
  const caption = message.mediaType === 'location' || message.mediaType === 'vcard' ? '' : message.body;
  const showCaption = caption !== '';
  const linkUrl = message.mediaType === null ? firstLink(message.body) : null;

  return (
    <Box
      sx={{ display: 'flex', justifyContent: fromMe ? 'flex-end' : 'flex-start', mb: message.reactions.length > 0 && !message.isDeleted ? 2.75 : 0.75 }}
      data-testid="message"
      data-id={message.id}
      data-from-me={fromMe}
    >
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
        {message.isDeleted ? null : <MessageReactions reactions={message.reactions} fromMe={fromMe} />}
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
