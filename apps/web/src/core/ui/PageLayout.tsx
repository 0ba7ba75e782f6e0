import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode, type Ref, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';

type Props = { title: string; subtitle?: ReactNode; actions?: ReactNode; children: ReactNode; testId?: string };

/** The frame of a page: a title row with its actions, then the content filling the height. */
export function PageLayout({ title, subtitle, actions, children, testId }: Props) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', p: { xs: 1.5, sm: 3 }, gap: 2, minHeight: 0 }} data-testid={testId}>
      <Stack direction={{ xs: 'column', md: 'row' }} alignItems={{ xs: 'stretch', md: 'center' }} justifyContent="space-between" gap={2}>
        <Box>
          <Typography variant="h5" component="h1" fontWeight={700} data-testid="page-title">
            {title}
          </Typography>
          {subtitle ? (
            <Typography variant="body2" color="text.secondary">
              {subtitle}
            </Typography>
          ) : null}
        </Box>
        {actions ? (
          <Stack direction="row" gap={1} flexWrap="wrap" alignItems="center" justifyContent={{ xs: 'flex-start', md: 'flex-end' }}>
            {actions}
          </Stack>
        ) : null}
      </Stack>
      {children}
    </Box>
  );
}

type ScrollPaperProps = { children: ReactNode; ref?: Ref<HTMLDivElement>; onScroll?: (event: UIEvent<HTMLDivElement>) => void; testId?: string };

/** The scrolling card that holds a list; infinite scroll watches it. */
export function ScrollPaper({ children, ref, onScroll, testId }: ScrollPaperProps) {
  return (
    <Paper ref={ref} onScroll={onScroll} variant="outlined" sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }} data-testid={testId}>
      {children}
    </Paper>
  );
}
