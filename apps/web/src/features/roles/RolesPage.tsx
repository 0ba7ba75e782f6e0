/** Roles and permissions: what each role's users may use; admins hold every permission. */
import AddIcon from '@mui/icons-material/Add';
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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { PERMISSIONS } from '@zapdesk/shared/permissions';
import type { TRole } from '@zapdesk/shared/roles';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { RowActions } from '../../core/ui/RowActions';
import { HIDE_ON_PHONE, TableEmptyRow, TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import { RoleModal } from './RoleModal';
import { deleteRole, rolesKey, useRoles } from './roles.api';
import { roleName } from './roleName';

const COLUMNS = 4;

export default function RolesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const roles = useRoles();
  const [editing, setEditing] = useState<{ role: TRole | null } | null>(null);
  const [deleting, setDeleting] = useState<TRole | null>(null);

  const confirmDelete = async (role: TRole) => {
    try {
      await deleteRole(role.id);
      await queryClient.invalidateQueries({ queryKey: rolesKey });
      toast.success(t('roles.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  const rows = roles.data ?? [];
  return (
    <PageLayout
      title={t('roles.title')}
      testId="roles-page"
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ role: null })} data-testid="add-role">
          {t('roles.add')}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('roles.intro')}
      </Typography>
      <ScrollPaper testId="roles-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>{t('roles.name')}</TableCell>
              <TableCell>{t('roles.permissions')}</TableCell>
              <TableCell sx={HIDE_ON_PHONE}>{t('roles.users')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((role) => (
              <TableRow key={role.id} hover data-testid="role-row" data-role={role.name}>
                <TableCell>
                  <Typography variant="body2" fontWeight={600}>
                    {roleName(t, role)}
                  </Typography>
                  {role.key ? (
                    <Typography variant="caption" color="text.secondary">
                      {t('roles.builtInHint')}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>
                  {role.permissions.length === 0 ? (
                    <Typography variant="body2" color="text.secondary">
                      {t('roles.nothing')}
                    </Typography>
                  ) : (
                    <Stack direction="row" flexWrap="wrap" gap={0.5}>
                      {PERMISSIONS.filter((p) => role.permissions.includes(p)).map((p) => (
                        <Chip key={p} size="small" label={t(`permissions.${p}.label`)} />
                      ))}
                    </Stack>
                  )}
                </TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{role.userCount}</TableCell>
                <TableCell align="right">
                  <RowActions testId="role" onEdit={() => setEditing({ role })} onDelete={role.key ? undefined : () => setDeleting(role)} />
                </TableCell>
              </TableRow>
            ))}
            {roles.isPending ? <TableRowsSkeleton columns={COLUMNS} /> : null}
            {!roles.isPending && rows.length === 0 ? <TableEmptyRow colSpan={COLUMNS} hint={t('roles.add')} /> : null}
          </TableBody>
        </Table>
      </ScrollPaper>
      {editing ? <RoleModal role={editing.role} onClose={() => setEditing(null)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('roles.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        {t('roles.deleteMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}
