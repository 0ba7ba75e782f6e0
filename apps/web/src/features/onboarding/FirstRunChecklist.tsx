/**
 * The first-run checklist on an admin's dashboard: connect a phone, create a queue, add an agent,
 * send a message. Each step ticks itself from what the server finds (see onboarding.api.ts). It is
 * shown while something is left to do, stays on screen with 'all set' once the last step is done
 * for an admin who saw it with a step left (this browser remembers that), and is gone once the
 * admin closes it (remembered per admin on the server). An install already set up (an upgrade)
 * shows nothing.
 */
import CheckCircle from '@mui/icons-material/CheckCircle';
import Close from '@mui/icons-material/Close';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { FIRST_RUN_STEPS, type FirstRunStep } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { toastError } from '../../core/ui/toastError';
import { dismissFirstRun, firstRunKey, useFirstRun, useFirstRunLiveRefresh } from './onboarding.api';

const STEP_PAGES: Record<FirstRunStep, string> = { connection: '/connections', queue: '/queues', agent: '/users', message: '/tickets' };

function readFlag(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function writeFlag(key: string): void {
  try {
    localStorage.setItem(key, '1');
  } catch {
    // Storage refused (private mode): the list then hides as soon as every step is done.
  }
}

export function FirstRunChecklist() {
  const { t } = useTranslation();
  const { isAdmin, user } = useAuth();
  const queryClient = useQueryClient();
  const { data } = useFirstRun(isAdmin);
  useFirstRunLiveRefresh(isAdmin);
  // Seen with a step left to do: the list stays to show 'all set' once the last one is done.
  const seenKey = `zapdesk.firstRun.seenOpen.${user?.id ?? 0}`;
  const [sawOpenStep, setSawOpenStep] = useState(() => readFlag(seenKey));
  const [closing, setClosing] = useState(false);
  if (data && !data.complete && !sawOpenStep) {
    writeFlag(seenKey);
    setSawOpenStep(true);
  }

  if (!isAdmin || !data || data.dismissed || (data.complete && !sawOpenStep)) return null;

  const doneCount = FIRST_RUN_STEPS.filter((step) => data.steps[step]).length;
  const close = async () => {
    setClosing(true);
    try {
      queryClient.setQueryData(firstRunKey, await dismissFirstRun());
      toast.success(t('firstRun.dismissed'));
    } catch (error) {
      toastError(error);
    } finally {
      setClosing(false);
    }
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="first-run-title"
      sx={{ p: { xs: 1.5, sm: 2.5 }, borderTop: 4, borderTopColor: 'primary.main', display: 'flex', flexDirection: 'column', gap: 1.5 }}
      data-testid="first-run"
      data-done={FIRST_RUN_STEPS.filter((step) => data.steps[step]).join(',')}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id="first-run-title" variant="h6" component="h2" fontWeight={700}>
            {t('firstRun.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {data.complete ? t('firstRun.allDone') : t('firstRun.subtitle')}
          </Typography>
        </Box>
        <IconButton onClick={() => void close()} disabled={closing} aria-label={t('firstRun.dismiss')} title={t('firstRun.dismiss')} size="small" data-testid="first-run-dismiss">
          <Close fontSize="small" />
        </IconButton>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <LinearProgress variant="determinate" value={(doneCount / FIRST_RUN_STEPS.length) * 100} aria-hidden sx={{ flex: 1, height: 6, borderRadius: 3 }} />
        <Typography variant="body2" fontWeight={600} color="text.secondary" sx={{ whiteSpace: 'nowrap' }} data-testid="first-run-progress">
          {t('firstRun.progress', { done: doneCount, total: FIRST_RUN_STEPS.length })}
        </Typography>
      </Box>
      <Box
        component="ol"
        sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' }, gap: { xs: 1, sm: 1.5 } }}
      >
        {FIRST_RUN_STEPS.map((step) => {
          const done = data.steps[step];
          return (
            <Box
              component="li"
              key={step}
              sx={{ display: 'flex', gap: 1.25, alignItems: 'flex-start', p: 1.25, borderRadius: 2, bgcolor: done ? 'rgba(46, 125, 50, 0.08)' : 'action.hover' }}
              data-testid={`first-run-${step}`}
              data-done={done ? 'true' : 'false'}
            >
              {done ? <CheckCircle color="success" sx={{ mt: 0.25 }} /> : <RadioButtonUnchecked color="disabled" sx={{ mt: 0.25 }} />}
              <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
                <Typography fontWeight={600}>{t(`firstRun.steps.${step}.label`)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {t(`firstRun.steps.${step}.help`)}
                </Typography>
                {done ? (
                  <Typography variant="body2" fontWeight={600} color="success.main">
                    {t('firstRun.done')}
                  </Typography>
                ) : (
                  <Button component={RouterLink} to={STEP_PAGES[step]} size="small" variant="outlined" sx={{ mt: 0.25 }} data-testid={`first-run-${step}-action`}>
                    {t(`firstRun.steps.${step}.action`)}
                  </Button>
                )}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Paper>
  );
}
