/**
 * The messaging connections: every user sees them and their live status; admins add, edit and
 * delete them and drive their sessions (QR code, try again, new QR, disconnect).
 */
import AddIcon from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { formatShortDateTime } from '../../core/ui/formatDate';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { RowActions } from '../../core/ui/RowActions';
import { HIDE_ON_PHONE, TableEmptyRow, TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import { ConnectionStatusBadge } from './ConnectionStatusBadge';
import { QrCodeDialog } from './QrCodeDialog';
import { SessionActions } from './SessionActions';
import { InstagramState } from './InstagramState';
import Instagram from '@mui/icons-material/Instagram';
import { WhatsappModal } from './WhatsappModal';
import { deleteWhatsapp, removeWhatsappFromCache, runSessionAction, saveWhatsappInCache, useWhatsapps } from './whatsapps.api';

export default function ConnectionsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { isAdmin } = useAuth();
  const whatsapps = useWhatsapps();
  const [editing, setEditing] = useState<{ whatsapp: TWhatsapp | null } | null>(null);
  const [deleting, setDeleting] = useState<TWhatsapp | null>(null);
  const [disconnecting, setDisconnecting] = useState<TWhatsapp | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const closeQr = useCallback(() => setQrFor(null), []);
  // After a create or a 'New QR' the phone has to scan a code: show it as soon as it comes.
  const awaitQr = (whatsapp: TWhatsapp) => {
    if (whatsapp.channel !== 'instagram' && (whatsapp.status === 'qrcode' || whatsapp.status === 'OPENING')) setQrFor(whatsapp.id);
  };

  const rows = whatsapps.data ?? [];
  const columns = isAdmin ? 7 : 5;

  const confirmDelete = async (whatsapp: TWhatsapp) => {
    try {
      await deleteWhatsapp(whatsapp.id);
      removeWhatsappFromCache(queryClient, whatsapp.id);
      toast.success(t('connections.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  const confirmDisconnect = async (whatsapp: TWhatsapp) => {
    try {
      saveWhatsappInCache(queryClient, await runSessionAction(whatsapp.id, 'disconnect'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <PageLayout
      title={t('connections.title')}
      subtitle={isAdmin ? undefined : t('connections.subtitleReadOnly')}
      testId="connections-page"
      actions={
        isAdmin ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ whatsapp: null })} data-testid="add-connection">
            {t('connections.add')}
          </Button>
        ) : null
      }
    >
      <ScrollPaper testId="connections-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell sx={{ ...HIDE_ON_PHONE, width: 64 }}>{t('connections.id')}</TableCell>
              <TableCell>{t('connections.name')}</TableCell>
              <TableCell>{t('connections.status')}</TableCell>
              {isAdmin ? <TableCell>{t('connections.session')}</TableCell> : null}
              <TableCell sx={HIDE_ON_PHONE}>{t('connections.lastUpdate')}</TableCell>
              <TableCell align="center">{t('connections.default')}</TableCell>
              {isAdmin ? <TableCell align="right">{t('common.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((whatsapp) => (
              <TableRow key={whatsapp.id} hover data-testid="connection-row" data-id={whatsapp.id}>
                <TableCell sx={{ ...HIDE_ON_PHONE, color: 'text.secondary' }}>{whatsapp.id}</TableCell>
                <TableCell>
                  <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap">
                    <Typography variant="body2" fontWeight={600}>
                      {whatsapp.name}
                    </Typography>
                    {whatsapp.channel === 'simulator' ? (
                      <Chip size="small" variant="outlined" color="secondary" label={t('connections.simulator')} sx={{ height: 20, fontSize: 11 }} data-testid="connection-channel-chip" />
                    ) : null}
                    {whatsapp.channel === 'instagram' ? (
                      <Chip size="small" variant="outlined" icon={<Instagram sx={{ fontSize: 14 }} />} label="Instagram" sx={{ height: 20, fontSize: 11 }} data-testid="connection-channel-chip" />
                    ) : null}
                  </Stack>
                  {whatsapp.instagram && isAdmin ? <InstagramState state={whatsapp.instagram} /> : null}
                </TableCell>
                <TableCell>
                  <ConnectionStatusBadge status={whatsapp.status} retries={whatsapp.retries} />
                </TableCell>
                {isAdmin ? (
                  <TableCell>
                    <SessionActions whatsapp={whatsapp} onShowQr={() => setQrFor(whatsapp.id)} onNewQr={awaitQr} onDisconnect={() => setDisconnecting(whatsapp)} />
                  </TableCell>
                ) : null}
                <TableCell sx={{ ...HIDE_ON_PHONE, whiteSpace: 'nowrap' }} data-testid="connection-updated">
                  {formatShortDateTime(whatsapp.updatedAt)}
                </TableCell>
                <TableCell align="center">
                  {whatsapp.isDefault ? <CheckCircle fontSize="small" color="success" titleAccess={t('connections.isDefault')} data-testid="connection-default-flag" /> : null}
                </TableCell>
                {isAdmin ? (
                  <TableCell align="right">
                    <RowActions testId="connection" onEdit={() => setEditing({ whatsapp })} onDelete={() => setDeleting(whatsapp)} />
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
            {whatsapps.isPending ? <TableRowsSkeleton columns={columns} /> : null}
            {!whatsapps.isPending && rows.length === 0 ? <TableEmptyRow colSpan={columns} hint={t('connections.emptyHint')} /> : null}
          </TableBody>
        </Table>
      </ScrollPaper>
      {editing ? <WhatsappModal whatsapp={editing.whatsapp} isFirst={rows.length === 0} onClose={() => setEditing(null)} onCreated={awaitQr} /> : null}
      {qrFor !== null ? <QrCodeDialog whatsappId={qrFor} onClose={closeQr} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('connections.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        {t('connections.deleteMessage')}
      </ConfirmationDialog>
      <ConfirmationDialog
        open={disconnecting !== null}
        title={t('connections.disconnectTitle', { name: disconnecting?.name ?? '' })}
        confirmLabel={t('connections.disconnectConfirm')}
        onClose={() => setDisconnecting(null)}
        onConfirm={() => (disconnecting ? confirmDisconnect(disconnecting) : undefined)}
      >
        {t('connections.disconnectMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}
