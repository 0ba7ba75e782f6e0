import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import Avatar from '@mui/material/Avatar';
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
import { LIMITS } from '@zapdesk/shared/domain';
import type { TUser } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { useInfiniteScroll } from '../../core/hooks/useInfiniteScroll';
import { usePagedList } from '../../core/lists/usePagedList';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { initials } from '../../core/ui/initials';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { RowActions } from '../../core/ui/RowActions';
import { SearchField } from '../../core/ui/SearchField';
import { HIDE_ON_PHONE, TableEmptyRow, TableRowsSkeleton } from '../../core/ui/TableStates';
import { toastError } from '../../core/ui/toastError';
import UserModal from './UserModal';
import { deleteUser, fetchUsersPage, removeUserFromCache, usersKeys } from './users.api';

const COLUMNS = 6;

export default function UsersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user: me } = useAuth();
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search, LIMITS.searchDebounceMs);
  const list = usePagedList({ listKey: usersKeys.list, search: debouncedSearch, fetchPage: fetchUsersPage });
  const scroll = useInfiniteScroll({ hasNextPage: list.hasNextPage, isFetching: list.isFetching, fetchNextPage: list.fetchNextPage });
  const [editing, setEditing] = useState<{ userId: number | undefined } | null>(null);
  const [deleting, setDeleting] = useState<TUser | null>(null);

  const confirmDelete = async (user: TUser) => {
    try {
      await deleteUser(user.id);
      removeUserFromCache(queryClient, user.id);
      toast.success(t('users.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <PageLayout
      title={t('users.title')}
      testId="users-page"
      actions={
        <>
          <SearchField value={search} onChange={setSearch} placeholder={t('users.search')} />
          <Button variant="contained" startIcon={<PersonAddAlt1Outlined />} onClick={() => setEditing({ userId: undefined })} data-testid="add-user">
            {t('users.add')}
          </Button>
        </>
      }
    >
      <ScrollPaper ref={scroll.containerRef} onScroll={scroll.onScroll} testId="users-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>{t('users.name')}</TableCell>
              <TableCell sx={HIDE_ON_PHONE}>{t('users.email')}</TableCell>
              <TableCell>{t('users.profile')}</TableCell>
              <TableCell sx={HIDE_ON_PHONE}>{t('users.connection')}</TableCell>
              <TableCell sx={HIDE_ON_PHONE}>{t('users.twoFactor')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((user) => (
              <TableRow key={user.id} hover data-testid="user-row">
                <TableCell>
                  <Stack direction="row" alignItems="center" gap={1.5}>
                    <Avatar sx={{ width: 32, height: 32, fontSize: 13, bgcolor: 'primary.main' }}>{initials(user.name)}</Avatar>
                    <Typography variant="body2" fontWeight={600}>
                      {user.name}
                    </Typography>
                  </Stack>
                </TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{user.email}</TableCell>
                <TableCell>
                  <Chip size="small" label={t(`users.profiles.${user.profile}`)} color={user.profile === 'admin' ? 'primary' : 'default'} variant={user.profile === 'admin' ? 'filled' : 'outlined'} />
                </TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{user.whatsapp?.name ?? '—'}</TableCell>
                <TableCell sx={HIDE_ON_PHONE} data-testid="user-two-factor">
                  {user.twoFactorEnabled ? (
                    <Chip size="small" color="success" label={t('twoFactor.on')} />
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      {t('twoFactor.off')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell align="right">
                  <RowActions testId="user" onEdit={() => setEditing({ userId: user.id })} onDelete={user.id === me?.id ? undefined : () => setDeleting(user)} />
                </TableCell>
              </TableRow>
            ))}
            {list.isPending || list.isFetchingNextPage ? <TableRowsSkeleton columns={COLUMNS} /> : null}
            {!list.isPending && list.items.length === 0 ? <TableEmptyRow colSpan={COLUMNS} search={debouncedSearch} hint={t('users.emptyHint')} /> : null}
          </TableBody>
        </Table>
      </ScrollPaper>
      {editing ? <UserModal open userId={editing.userId} onClose={() => setEditing(null)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('users.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        {t('users.deleteMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}
