/**
 * Under the API token setting: the named tokens (what each may do, its expiry, its last use, who
 * made it, whether it was revoked), a button to make one, and revoking one after a confirmation.
 */
import Add from '@mui/icons-material/Add';
import Block from '@mui/icons-material/Block';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TApiToken } from '@zapdesk/shared/api-tokens';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { formatDay, formatShortDateTime } from '../../core/ui/formatDate';
import { toastError } from '../../core/ui/toastError';
import { ApiTokenDialog } from './ApiTokenDialog';
import { revokeApiToken, saveApiTokenInCache, useApiTokens } from './apiTokens.api';

type State = 'active' | 'expired' | 'revoked';
const COLORS: Record<State, 'success' | 'default' | 'error'> = { active: 'success', expired: 'default', revoked: 'error' };

function stateOf(token: TApiToken): State {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && Date.parse(token.expiresAt) <= Date.now()) return 'expired';
  return 'active';
}

export function ApiTokensPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tokens = useApiTokens();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<TApiToken | null>(null);

  const revoke = async (token: TApiToken) => {
    try {
      saveApiTokenInCache(queryClient, await revokeApiToken(token.id));
      toast.success(t('settings.apiTokens.revokedToast', { name: token.name }));
    } catch (error) {
      toastError(error);
    }
  };

  const rows = tokens.data?.apiTokens ?? [];
  const hideSmall = { display: { xs: 'none', md: 'table-cell' } };
  return (
    <Stack gap={2} sx={{ px: 3, py: 2, borderTop: 1, borderColor: 'divider' }} data-testid="api-tokens-panel">
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={1.5} alignItems={{ sm: 'flex-start' }} justifyContent="space-between">
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body1" fontWeight={600} component="h3">
            {t('settings.apiTokens.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('settings.apiTokens.intro')}
          </Typography>
        </Box>
        <Button variant="outlined" startIcon={<Add />} onClick={() => setCreating(true)} data-testid="api-token-add" sx={{ flexShrink: 0 }}>
          {t('settings.apiTokens.add')}
        </Button>
      </Stack>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="api-tokens-empty">
          {t('settings.apiTokens.none')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" data-testid="api-tokens-list">
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.apiTokens.name')}</TableCell>
                <TableCell>{t('settings.apiTokens.permissions')}</TableCell>
                <TableCell sx={hideSmall}>{t('settings.apiTokens.expires')}</TableCell>
                <TableCell sx={hideSmall}>{t('settings.apiTokens.lastUsed')}</TableCell>
                <TableCell sx={hideSmall}>{t('settings.apiTokens.createdBy')}</TableCell>
                <TableCell>{t('settings.apiTokens.state')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((token) => {
                const state = stateOf(token);
                return (
                  <TableRow key={token.id} data-testid="api-token-row" data-state={state}>
                    <TableCell sx={{ wordBreak: 'break-word' }}>
                      {token.name}
                      <Typography variant="caption" color="text.secondary" display="block" sx={{ whiteSpace: 'nowrap' }}>
                        {t('settings.apiTokens.prefix')}{' '}
                        <Box component="span" sx={{ fontFamily: 'monospace' }}>
                          {token.prefix}…
                        </Box>
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" flexWrap="wrap" gap={0.5}>
                        {token.permissions.map((permission) => (
                          <Chip key={permission} size="small" variant="outlined" label={t(`settings.apiTokens.permissionNames.${permission}`)} />
                        ))}
                      </Stack>
                    </TableCell>
                    <TableCell sx={{ ...hideSmall, whiteSpace: 'nowrap' }}>{token.expiresAt ? formatDay(token.expiresAt) : t('settings.apiTokens.never')}</TableCell>
                    <TableCell sx={{ ...hideSmall, whiteSpace: 'nowrap' }}>{token.lastUsedAt ? formatShortDateTime(token.lastUsedAt) : t('settings.apiTokens.neverUsed')}</TableCell>
                    <TableCell sx={hideSmall}>{token.createdBy?.name ?? '—'}</TableCell>
                    <TableCell>
                      <Chip size="small" color={COLORS[state]} label={t(`settings.apiTokens.${state}`)} />
                    </TableCell>
                    <TableCell align="right">
                      {state === 'revoked' ? null : (
                        <Tooltip title={t('settings.apiTokens.revoke')}>
                          <IconButton size="small" color="error" onClick={() => setRevoking(token)} aria-label={t('settings.apiTokens.revoke')} data-testid="api-token-revoke">
                            <Block fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      )}
      {creating ? <ApiTokenDialog onClose={() => setCreating(false)} /> : null}
      <ConfirmationDialog
        open={revoking !== null}
        title={t('settings.apiTokens.revokeTitle', { name: revoking?.name ?? '' })}
        confirmLabel={t('settings.apiTokens.revoke')}
        onClose={() => setRevoking(null)}
        onConfirm={() => (revoking ? revoke(revoking) : undefined)}
      >
        {t('settings.apiTokens.revokeMessage')}
      </ConfirmationDialog>
    </Stack>
  );
}
