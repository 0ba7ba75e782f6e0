import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
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
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';
import type { TContact } from '@zapdesk/shared/schemas';
import { useAuth } from '../../core/auth/AuthProvider';
import { useDebouncedValue } from '../../core/hooks/useDebouncedValue';
import { useInfiniteScroll } from '../../core/hooks/useInfiniteScroll';
import { removeFromPages } from '../../core/lists/liveCache';
import { usePagedList } from '../../core/lists/usePagedList';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { initials } from '../../core/ui/initials';
import { PageLayout, ScrollPaper } from '../../core/ui/PageLayout';
import { RowActions } from '../../core/ui/RowActions';
import { visuallyHidden } from '../../core/ui/visuallyHidden';
import { SearchField } from '../../core/ui/SearchField';
import { HIDE_ON_PHONE, TableEmptyRow, TableRowsSkeleton } from '../../core/ui/TableStates';
import { errorText, toastError } from '../../core/ui/toastError';
import { createTicket, saveTicketInCache } from '../tickets/tickets.api';
import { LabelChips } from '../labels/LabelChips';
import { LabelFilterSelect } from '../labels/LabelFilterSelect';
import { ContactImportDialog } from './ContactImportDialog';
import { ContactModal } from './ContactModal';
import { contactsKeys, deleteContact, downloadContactsCsv, fetchContactsPage } from './contacts.api';

const COLUMNS = 5;

export default function ContactsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { can, user } = useAuth();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search, LIMITS.searchDebounceMs);
  const [labelIds, setLabelIds] = useState<number[]>([]);
  // A list narrowed by label is kept apart from the live-patched lists, and read again when labels change.
  const list = usePagedList({
    listKey: labelIds.length ? ['contacts', 'byLabel', labelIds.join(',')] : contactsKeys.list,
    search: debouncedSearch,
    fetchPage: (text, page) => fetchContactsPage(text, page, labelIds),
  });
  const scroll = useInfiniteScroll({ hasNextPage: list.hasNextPage, isFetching: list.isFetching, fetchNextPage: list.fetchNextPage });
  const [editing, setEditing] = useState<{ contact: TContact | null } | null>(null);
  const [deleting, setDeleting] = useState<TContact | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);

  // The chat button: a new open ticket for the contact, assigned to oneself (ERR_OTHER_OPEN_TICKET when one is active).
  async function startTicket(contact: TContact) {
    if (!user) return;
    try {
      const ticket = await createTicket({ contactId: contact.id }, user.id, null);
      saveTicketInCache(queryClient, ticket, user);
      void navigate(`/tickets/${ticket.id}`);
    } catch (error) {
      toastError(error);
    }
  }

  const confirmDelete = async (contact: TContact) => {
    try {
      await deleteContact(contact.id);
      removeFromPages(queryClient, contactsKeys.list, contact.id);
      toast.success(t('contacts.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadContactsCsv();
    } catch (error) {
      toast.error(t('errors.prefixed', { message: errorText(error) }));
    } finally {
      setExporting(false);
    }
  };

  return (
    <PageLayout
      title={t('contacts.title')}
      testId="contacts-page"
      actions={
        <>
          <SearchField value={search} onChange={setSearch} placeholder={t('contacts.search')} />
          <LabelFilterSelect value={labelIds} onChange={setLabelIds} testId="contacts-label-filter" />
          {can('contactsImportExport') ? (
            <>
              <Button variant="outlined" startIcon={<FileUploadOutlined />} onClick={() => setImporting(true)} data-testid="import-contacts">
                {t('contacts.import')}
              </Button>
              <Button variant="outlined" startIcon={<FileDownloadOutlined />} onClick={() => void exportCsv()} disabled={exporting} data-testid="export-contacts">
                {t('contacts.export')}
              </Button>
            </>
          ) : null}
          <Button variant="contained" startIcon={<PersonAddAlt1Outlined />} onClick={() => setEditing({ contact: null })} data-testid="add-contact">
            {t('contacts.add')}
          </Button>
        </>
      }
    >
      <ScrollPaper ref={scroll.containerRef} onScroll={scroll.onScroll} testId="contacts-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Box component="span" sx={visuallyHidden}>
                  {t('contacts.photo')}
                </Box>
              </TableCell>
              <TableCell>{t('contacts.name')}</TableCell>
              <TableCell sx={HIDE_ON_PHONE}>{t('contacts.number')}</TableCell>
              <TableCell sx={HIDE_ON_PHONE}>{t('contacts.email')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map((contact) => (
              <TableRow key={contact.id} hover data-testid="contact-row">
                <TableCell padding="checkbox" sx={{ pl: 2 }}>
                  <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 36, height: 36, fontSize: 14, bgcolor: 'primary.main' }}>
                    {initials(contact.name)}
                  </Avatar>
                </TableCell>
                <TableCell>
                  <Typography variant="body2" fontWeight={600}>
                    {contact.name}
                  </Typography>
                  <LabelChips labels={contact.labels} testId="contact-row-label" />
                  {/* Phones show the number under the name instead of in its own column. */}
                  <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' }, fontVariantNumeric: 'tabular-nums' }}>
                    {contact.number}
                  </Typography>
                </TableCell>
                <TableCell sx={{ ...HIDE_ON_PHONE, fontVariantNumeric: 'tabular-nums' }}>{contact.number}</TableCell>
                <TableCell sx={HIDE_ON_PHONE}>{contact.email || '—'}</TableCell>
                <TableCell align="right">
                  <RowActions testId="contact" onEdit={() => setEditing({ contact })} onDelete={can('contactsDelete') ? () => setDeleting(contact) : undefined}>
                    <Tooltip title={t('contacts.startTicket')}>
                      <IconButton size="small" onClick={() => void startTicket(contact)} aria-label={t('contacts.startTicket')} data-testid="contact-start-ticket">
                        <WhatsApp fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </RowActions>
                </TableCell>
              </TableRow>
            ))}
            {list.isPending || list.isFetchingNextPage ? <TableRowsSkeleton columns={COLUMNS} avatar /> : null}
            {!list.isPending && list.items.length === 0 ? <TableEmptyRow colSpan={COLUMNS} search={debouncedSearch} hint={t('contacts.emptyHint')} /> : null}
          </TableBody>
        </Table>
      </ScrollPaper>
      {editing ? <ContactModal contact={editing.contact} onClose={() => setEditing(null)} /> : null}
      {importing ? <ContactImportDialog onClose={() => setImporting(false)} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('contacts.deleteTitle', { name: deleting?.name ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? confirmDelete(deleting) : undefined)}
      >
        {t('contacts.deleteMessage')}
      </ConfirmationDialog>
    </PageLayout>
  );
}
