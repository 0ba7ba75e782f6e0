/**
 * /webhooks (admins): the addresses that receive the product's events, each with its events, an
 * on/off switch, what is still pending or failed, and its actions. Empty, it says what a webhook
 * is for and how a receiver checks the signature.
 */
import AddIcon from '@mui/icons-material/Add';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { WEBHOOK_EVENTS, type TWebhook, type TWebhookWithSecret } from '@zapdesk/shared/webhooks';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import { followDelivery } from './followDelivery';
import { SecretDialog } from './SecretDialog';
import { SignatureHelp } from './SignatureHelp';
import { WebhookActions } from './WebhookActions';
import { WebhookDialog } from './WebhookDialog';
import { deleteWebhook, pingWebhook, removeWebhookFromCache, renewWebhookSecret, saveWebhookInCache, updateWebhook, useWebhooks } from './webhooks.api';
import { eventName, outcomeToast, sortedEvents } from './webhookText';

const COLUMNS = 4;
const HIDE_ON_PHONE = { display: { xs: 'none', sm: 'table-cell' } } as const;

export default function WebhooksPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [editing, setEditing] = useState<{ webhook: TWebhook | null } | null>(null);
  const [shown, setShown] = useState<{ webhook: TWebhookWithSecret; renewed: boolean } | null>(null);
  const [deleting, setDeleting] = useState<TWebhook | null>(null);
  const [renewing, setRenewing] = useState<TWebhook | null>(null);
  const [testing, setTesting] = useState<number | null>(null);

  const toggle = async (webhook: TWebhook, enabled: boolean) => {
    try {
      saveWebhookInCache(queryClient, await updateWebhook(webhook.id, { enabled }));
      toast.success(enabled ? t('webhooks.turnedOn') : t('webhooks.turnedOff'));
    } catch (error) {
      toastError(error);
    }
  };

  const sendTest = async (webhook: TWebhook) => {
    setTesting(webhook.id);
    try {
      const followed = await followDelivery(queryClient, await pingWebhook(webhook.id));
      const outcome = outcomeToast(followed, { delivered: 'webhooks.testDelivered', failed: 'webhooks.testNotDelivered', stored: 'webhooks.testStored' });
      toast[outcome.kind](outcome.text);
    } catch (error) {
      toastError(error);
    } finally {
      setTesting(null);
    }
  };

  const renew = async (webhook: TWebhook) => {
    try {
      const renewed = await renewWebhookSecret(webhook.id);
      saveWebhookInCache(queryClient, renewed);
      setShown({ webhook: renewed, renewed: true });
    } catch (error) {
      toastError(error);
    }
  };

  const remove = async (webhook: TWebhook) => {
    try {
      await deleteWebhook(webhook.id);
      removeWebhookFromCache(queryClient, webhook.id);
      toast.success(t('webhooks.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  const rows = webhooks.data ?? [];
  const add = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ webhook: null })} data-testid="webhook-add">
      {t('webhooks.add')}
    </Button>
  );
  return (
    <PageLayout title={t('webhooks.title')} subtitle={t('webhooks.subtitle')} testId="webhooks-page" actions={rows.length > 0 ? add : null}>
      {!webhooks.isPending && rows.length === 0 ? (
        <EmptyState action={add} />
      ) : (
        <ScrollPaper testId="webhooks-list">
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                <TableCell>{t('webhooks.address')}</TableCell>
                <TableCell>{t('webhooks.active')}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{t('webhooks.deliveries')}</TableCell>
                <TableCell align="right">{t('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((webhook) => (
                <TableRow key={webhook.id} hover data-testid="webhook-row" data-webhook-id={webhook.id}>
                  <TableCell sx={{ minWidth: 0, maxWidth: { xs: 210, sm: 'none' }, pr: { xs: 0.5, sm: 2 } }}>
                    <Link
                      component={RouterLink}
                      to={`/webhooks/${webhook.id}`}
                      underline="hover"
                      color={webhook.enabled ? 'primary' : 'text.secondary'}
                      sx={{ fontFamily: 'monospace', wordBreak: 'break-all', fontSize: 14 }}
                      data-testid="webhook-url-link"
                    >
                      {webhook.url}
                    </Link>
                    <Stack direction="row" flexWrap="wrap" gap={0.5} sx={{ mt: 0.75 }} data-testid="webhook-events-chips">
                      {webhook.events.length === WEBHOOK_EVENTS.length ? (
                        <Chip size="small" variant="outlined" label={t('webhooks.allEvents')} />
                      ) : (
                        sortedEvents(webhook.events).map((event) => <Chip key={event} size="small" variant="outlined" label={eventName(event)} />)
                      )}
                    </Stack>
                    <Box sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.75 }}>
                      <Counts webhook={webhook} testId="webhook-counts-phone" />
                    </Box>
                    <Typography variant="caption" color="text.secondary" display="block" sx={{ mt: 0.5 }}>
                      {t('webhooks.secretEnding', { hint: webhook.secretHint })}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ px: { xs: 0, sm: 2 } }}>
                    <Switch
                      checked={webhook.enabled}
                      onChange={(event) => void toggle(webhook, event.target.checked)}
                      slotProps={{ input: { 'aria-label': t('webhooks.active') } }}
                      data-testid="webhook-toggle"
                    />
                  </TableCell>
                  <TableCell sx={HIDE_ON_PHONE}>
                    <Counts webhook={webhook} />
                  </TableCell>
                  <TableCell align="right" sx={{ pl: { xs: 0, sm: 2 } }}>
                    <WebhookActions
                      webhookId={webhook.id}
                      testing={testing === webhook.id}
                      onTest={() => void sendTest(webhook)}
                      onEdit={() => setEditing({ webhook })}
                      onNewSecret={() => setRenewing(webhook)}
                      onDelete={() => setDeleting(webhook)}
                    />
                  </TableCell>
                </TableRow>
              ))}
              {webhooks.isPending ? <TableRowsSkeleton columns={COLUMNS} /> : null}
            </TableBody>
          </Table>
        </ScrollPaper>
      )}
      {editing ? (
        <WebhookDialog
          webhook={editing.webhook}
          onClose={() => setEditing(null)}
          onCreated={(webhook) => {
            setEditing(null);
            setShown({ webhook, renewed: false });
          }}
        />
      ) : null}
      {shown ? <SecretDialog webhook={shown.webhook} renewed={shown.renewed} onClose={() => setShown(null)} /> : null}
      <ConfirmationDialog
        open={renewing !== null}
        title={t('webhooks.renewTitle', { address: renewing?.url ?? '' })}
        confirmLabel={t('webhooks.newSecret')}
        onClose={() => setRenewing(null)}
        onConfirm={() => (renewing ? renew(renewing) : undefined)}
      >
        {t('webhooks.renewMessage')}
      </ConfirmationDialog>
      <ConfirmationDialog
        open={deleting !== null}
        title={t('webhooks.deleteTitle', { address: deleting?.url ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('webhooks.deleteMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}

/** What is waiting (pending) and what was given up (failed), or that nothing is waiting. */
function Counts({ webhook, testId = 'webhook-counts' }: { webhook: TWebhook; testId?: string }) {
  const { t } = useTranslation();
  if (webhook.pendingCount === 0 && webhook.failedCount === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }} data-testid={testId}>
        {t('webhooks.allDelivered')}
      </Typography>
    );
  }
  return (
    <Stack direction="row" gap={0.5} flexWrap="wrap" data-testid={testId}>
      {webhook.pendingCount > 0 ? <Chip size="small" color="warning" variant="outlined" label={t('webhooks.pending', { count: webhook.pendingCount })} data-testid="webhook-pending" /> : null}
      {webhook.failedCount > 0 ? <Chip size="small" color="error" variant="outlined" label={t('webhooks.failed', { count: webhook.failedCount })} data-testid="webhook-failed" /> : null}
    </Stack>
  );
}

function EmptyState({ action }: { action: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 }, overflowY: 'auto' }} data-testid="webhooks-empty">
      <Stack gap={2} alignItems="flex-start" sx={{ maxWidth: 720 }}>
        <WebhookOutlined sx={{ fontSize: 44, color: 'action.disabled' }} />
        <Typography variant="h6" component="h2">
          {t('webhooks.emptyTitle')}
        </Typography>
        <Typography variant="body1">{t('webhooks.emptyText')}</Typography>
        <SignatureHelp />
        {action}
      </Stack>
    </Paper>
  );
}
