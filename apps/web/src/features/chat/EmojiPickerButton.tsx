/** The input's emoji button: the picker opens in a popover and its code loads only then. */
import InsertEmoticon from '@mui/icons-material/InsertEmoticon';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/i18n';

const EmojiPickerPanel = lazy(() => import('./EmojiPickerPanel'));

export function EmojiPickerButton({ disabled, onPick }: { disabled: boolean; onPick: (emoji: string) => void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton disabled={disabled} onClick={(event) => setAnchor(event.currentTarget)} aria-label={t('chat.emoji')} data-testid="message-emoji">
        <InsertEmoticon />
      </IconButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box data-testid="emoji-picker" sx={{ minWidth: 320, minHeight: 380 }}>
          <Suspense
            fallback={
              <Box sx={{ display: 'grid', placeItems: 'center', width: 320, height: 380 }}>
                <CircularProgress />
              </Box>
            }
          >
            <EmojiPickerPanel onPick={onPick} language={currentLanguage()} />
          </Suspense>
        </Box>
      </Popover>
    </>
  );
}
