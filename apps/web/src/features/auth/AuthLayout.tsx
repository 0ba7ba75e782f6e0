import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../core/ui/Logo';
import { LanguageMenu } from '../../app/shell/LanguageMenu';

type Props = { title: string; subtitle: string; children: ReactNode; testId: string };

/** The frame of the login and signup pages: brand, a card with the form, the language switcher. */
export function AuthLayout({ title, subtitle, children, testId }: Props) {
  const { t } = useTranslation();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        background: 'linear-gradient(160deg, #004D40 0%, #00796B 45%, #26A69A 100%)',
        position: 'relative',
      }}
      data-testid={testId}
    >
      <Box sx={{ position: 'absolute', top: 12, right: 12, color: '#fff' }}>
        <LanguageMenu />
      </Box>
      <Stack direction="row" alignItems="center" gap={1.5} sx={{ mb: 3, color: '#fff' }}>
        <Logo size={44} />
        <Box>
          <Typography variant="h5" component="p" fontWeight={800} lineHeight={1.1}>
            {t('app.name')}
          </Typography>
          <Typography variant="body2" sx={{ opacity: 0.85 }}>
            {t('app.tagline')}
          </Typography>
        </Box>
      </Stack>
      <Paper elevation={8} sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 }, borderRadius: 3 }}>
        <Typography variant="h5" component="h1" fontWeight={700} data-testid="auth-title">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          {subtitle}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
