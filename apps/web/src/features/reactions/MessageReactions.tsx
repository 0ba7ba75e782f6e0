/**
 * The reactions on a message, as WhatsApp shows them: a small pill overlapping the bubble's lower
 * edge with each emoji once (and how many people reacted, when more than one); pointing at it
 * says who reacted with what.
 */
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import type { TMessageReaction } from '@zapdesk/shared/reactions';

/** How many different emoji the pill shows, as WhatsApp does. */
const SHOWN_EMOJI = 3;

type Props = { reactions: TMessageReaction[]; fromMe: boolean };

export function MessageReactions({ reactions, fromMe }: Props) {
  const { t } = useTranslation();
  if (reactions.length === 0) return null;
  const distinct = [...new Set(reactions.map((r) => r.emoji))].slice(0, SHOWN_EMOJI);
  const people = reactions.map((r) => t('reactions.byPerson', { name: r.fromMe ? t('reactions.you') : (r.senderName ?? t('reactions.someone')), emoji: r.emoji }));
  return (
    <Tooltip title={<Box sx={{ whiteSpace: 'pre-line' }}>{people.join('\n')}</Box>}>
      <Box
        role="img"
        aria-label={t('reactions.label', { list: people.join(', ') })}
        data-testid="message-reactions"
        sx={{
          position: 'absolute',
          bottom: -18,
          // Towards the middle of the chat, as on the phone.
          ...(fromMe ? { right: 10 } : { left: 10 }),
          display: 'inline-flex',
          alignItems: 'center',
          gap: 0.25,
          px: 0.75,
          height: 24,
          borderRadius: 12,
          bgcolor: '#FFFFFF',
          border: '1px solid rgba(0,0,0,0.08)',
          boxShadow: '0 1px 2px rgba(0,0,0,0.16)',
          fontSize: 14,
          lineHeight: 1,
          cursor: 'default',
          userSelect: 'none',
        }}
      >
        {distinct.map((emoji) => (
          <Box component="span" key={emoji} data-testid="message-reaction">
            {emoji}
          </Box>
        ))}
        {reactions.length > 1 ? (
          <Box component="span" sx={{ fontSize: 12, color: 'text.secondary', ml: 0.25 }}>
            {reactions.length}
          </Box>
        ) : null}
      </Box>
    </Tooltip>
  );
}
