/**
 * /ZDGChatbot: the Typebot server of the settings in a frame, to build and test flows without
 * leaving the product. Not set up: says so, with the way to the settings. The security policy
 * lets the app frame that one origin; a site that refuses to be framed can be opened in a tab.
 */
import OpenInNew from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../../core/auth/AuthProvider';
import { request } from '../../core/api/client';
import { CenteredLoader } from '../../core/ui/CenteredLoader';
import { PageLayout } from '../../core/ui/PageLayout';

export default function ChatbotPage() {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  // Read each time the page opens: the settings may have changed since.
  const frame = useQuery({ queryKey: ['chatbot', 'frame'], queryFn: () => request<{ url: string | null; enabled: boolean }>('/chatbot/frame'), staleTime: 0, refetchOnMount: 'always' });
  const url = frame.data?.url ?? null;

  // The page's security policy was set when the app loaded: a Typebot address saved since then is
  // not in it yet, and the frame is blocked. One reload brings the policy that allows it.
  useEffect(() => {
    if (!url) return;
    const origin = new URL(url).origin;
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (!event.effectiveDirective.startsWith('frame-src') || !event.blockedURI.startsWith(origin)) return;
      if (sessionStorage.getItem('chatbot-reloaded') === origin) return;
      sessionStorage.setItem('chatbot-reloaded', origin);
      window.location.reload();
    };
    document.addEventListener('securitypolicyviolation', onViolation);
    return () => document.removeEventListener('securitypolicyviolation', onViolation);
  }, [url]);

  return (
    <PageLayout
      title={t('menu.bot')}
      subtitle={t('chatbot.subtitle')}
      testId="chatbot-page"
      actions={
        url ? (
          <Button variant="outlined" startIcon={<OpenInNew />} href={url} target="_blank" rel="noopener noreferrer" data-testid="chatbot-open">
            {t('chatbot.openNewTab')}
          </Button>
        ) : null
      }
    >
      {frame.isPending ? (
        <CenteredLoader />
      ) : !url ? (
        <Alert
          severity="info"
          data-testid="chatbot-not-set"
          action={
            isAdmin ? (
              <Button component={RouterLink} to="/settings" size="small" data-testid="chatbot-settings-link">
                {t('chatbot.goToSettings')}
              </Button>
            ) : undefined
          }
        >
          {isAdmin ? t('chatbot.notSet') : t('chatbot.notSetUser')}
        </Alert>
      ) : (
        <Stack gap={1} sx={{ flex: 1, minHeight: 0 }}>
          {frame.data?.enabled ? null : (
            <Alert severity="warning" data-testid="chatbot-disabled">
              {t('chatbot.disabled')}
            </Alert>
          )}
          <Box sx={{ flex: 1, minHeight: 420, border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden', bgcolor: 'background.paper' }}>
            <iframe src={url} title={t('chatbot.frameTitle')} style={{ width: '100%', height: '100%', border: 0 }} data-testid="chatbot-frame" />
          </Box>
          <Typography variant="caption" color="text.secondary">
            {t('chatbot.frameHint')}
          </Typography>
        </Stack>
      )}
    </PageLayout>
  );
}
