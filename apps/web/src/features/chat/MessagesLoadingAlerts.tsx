/**
 * The chat's messages-loading alerts (spec: 'Messages-loading alerts also exist'): older
 * messages being fetched, and a load that failed, with a button to try again. The chat never
 * sits empty or silent while its messages cannot be read.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/** Over the top of the list: older messages are on their way, or could not be loaded. */
export function OlderMessagesAlert({ loading, failed, onRetry }: { loading: boolean; failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!loading && !failed) return null;
  return (
    <Box sx={{ position: 'absolute', top: 8, left: 0, right: 0, display: 'flex', justifyContent: 'center', px: 1, pointerEvents: 'none', zIndex: 1 }}>
      {failed ? (
        <Alert
          severity="warning"
          sx={{ pointerEvents: 'auto', boxShadow: 1, py: 0 }}
          action={
            <Button color="inherit" size="small" onClick={onRetry} sx={{ whiteSpace: 'nowrap' }} data-testid="messages-older-retry">
              {t('chatLoading.retry')}
            </Button>
          }
          data-testid="messages-older-failed"
        >
          {t('chatLoading.olderFailed')}
        </Alert>
      ) : (
        <Alert severity="info" icon={<CircularProgress size={16} />} sx={{ boxShadow: 1, py: 0 }} data-testid="messages-loading-older">
          {t('chatLoading.older')}
        </Alert>
      )}
    </Box>
  );
}

/** In place of the list: the chat's messages could not be loaded at all. */
export function MessagesLoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', height: '100%', px: 2 }} data-testid="messages-list">
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry} disabled={retrying} sx={{ whiteSpace: 'nowrap' }} data-testid="messages-retry">
            {t('chatLoading.retry')}
          </Button>
        }
        data-testid="messages-load-failed"
      >
        {t('chatLoading.failed')}
      </Alert>
    </Box>
  );
}
