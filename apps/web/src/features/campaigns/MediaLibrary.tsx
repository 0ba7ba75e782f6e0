/**
 * 'Media by local path' without a path to type: the media library (the server's local media
 * folder) listed with each file's kind and size; files are added from this computer, removed
 * after a confirmation, and one is picked for the send, with its preview.
 */
import CheckCircle from '@mui/icons-material/CheckCircle';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TLocalMediaFile, TLocalMediaList } from '@zapdesk/shared/media-library';
import { ConfirmationDialog } from '../../core/ui/ConfirmationDialog';
import { formatFileSize } from '../../core/ui/formatFileSize';
import { toastError } from '../../core/ui/toastError';
import { campaignsKeys, deleteLibraryFile, fetchLocalMedia, uploadLibraryFile } from './campaigns.api';
import { MediaPreview, MediaTypeIcon } from './MediaPreview';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,video/mp4,audio/ogg,audio/mpeg,audio/mp4,audio/x-m4a,application/pdf,.ogg,.opus,.m4a';

type Props = { selected: string; onSelect: (path: string) => void; error: string | undefined };

export function MediaLibrary({ selected, onSelect, error }: Props) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const files = useQuery({ queryKey: campaignsKeys.localMedia, queryFn: fetchLocalMedia });
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState<TLocalMediaFile | undefined>(undefined);
  const list = files.data?.files ?? [];
  const chosen = list.find((file) => file.path === selected);
  const size = (bytes: number) => formatFileSize(bytes, i18n.language);

  const add = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      const added = await uploadLibraryFile(file);
      // The list and the choice come from the answer, not from a later reading of the folder.
      queryClient.setQueryData<TLocalMediaList>(campaignsKeys.localMedia, (old) =>
        old ? { ...old, files: [...old.files.filter((f) => f.path !== added.path), added].sort((a, b) => a.path.localeCompare(b.path)) } : old,
      );
      onSelect(added.path);
      toast.success(t('toolPages.library.added', { name: added.path }));
    } catch (caught) {
      toastError(caught);
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };

  const remove = async (file: TLocalMediaFile) => {
    try {
      await deleteLibraryFile(file.path);
      queryClient.setQueryData<TLocalMediaList>(campaignsKeys.localMedia, (old) => (old ? { ...old, files: old.files.filter((f) => f.path !== file.path) } : old));
      if (selected === file.path) onSelect('');
      toast.success(t('toolPages.library.removed'));
    } catch (caught) {
      toastError(caught);
    }
  };

  return (
    <Stack gap={1.5} data-testid="media-library">
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={1.5} alignItems={{ sm: 'center' }} justifyContent="space-between">
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" fontWeight={700}>
            {t('toolPages.library.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('toolPages.library.help')} {files.data ? t('toolPages.library.limits', { size: size(files.data.maxBytes) }) : ''}
          </Typography>
        </Box>
        <Button variant="outlined" startIcon={<UploadFile />} disabled={uploading} onClick={() => input.current?.click()} sx={{ flexShrink: 0 }} data-testid="media-library-add">
          {uploading ? t('toolPages.library.adding') : t('toolPages.library.add')}
        </Button>
        <input ref={input} type="file" accept={ACCEPT} hidden onChange={(event) => void add(event.target.files?.[0])} data-testid="media-library-input" />
      </Stack>
      <Paper variant="outlined" sx={{ maxHeight: 300, overflowY: 'auto', borderColor: error ? 'error.main' : undefined }}>
        {list.length === 0 && !files.isPending ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }} data-testid="media-library-empty">
            {t('toolPages.library.empty')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {list.map((file) => {
              const isChosen = file.path === selected;
              return (
                <ListItem
                  key={file.path}
                  disablePadding
                  data-testid="media-library-file"
                  data-path={file.path}
                  data-chosen={isChosen ? 'true' : 'false'}
                  secondaryAction={
                    <Tooltip title={t('toolPages.library.remove')}>
                      <IconButton edge="end" aria-label={t('toolPages.library.removeNamed', { name: file.path })} onClick={() => setRemoving(file)} data-testid="media-library-remove">
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  }
                >
                  <ListItemButton selected={isChosen} onClick={() => onSelect(file.path)} aria-pressed={isChosen}>
                    <ListItemIcon sx={{ minWidth: 36 }}>{isChosen ? <CheckCircle color="primary" fontSize="small" /> : <MediaTypeIcon kind={file.mediaType} />}</ListItemIcon>
                    <ListItemText
                      primary={file.path}
                      secondary={`${t(`toolPages.library.types.${file.mediaType}`)} · ${size(file.size)}${isChosen ? ` · ${t('toolPages.library.chosen')}` : ''}`}
                      slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
                    />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        )}
      </Paper>
      {error ? <FormHelperText error>{error === t('validation.REQUIRED') ? t('toolPages.library.pickOne') : error}</FormHelperText> : null}
      {chosen ? (
        <Alert severity="success" icon={false} data-testid="media-library-chosen">
          <Typography variant="body2" fontWeight={600} sx={{ mb: 1 }}>
            {t('toolPages.library.selected')}
          </Typography>
          <MediaPreview
            key={`${chosen.path}-${chosen.modifiedAt}`}
            source={{ libraryPath: chosen.path }}
            kind={chosen.mediaType}
            name={`${chosen.path} · ${size(chosen.size)}`}
            testId="media-library-preview"
          />
        </Alert>
      ) : null}
      <ConfirmationDialog
        open={removing !== undefined}
        title={t('toolPages.library.removeTitle')}
        confirmLabel={t('toolPages.library.remove')}
        cancelLabel={t('toolPages.library.keep')}
        onClose={() => setRemoving(undefined)}
        onConfirm={() => (removing ? remove(removing) : undefined)}
      >
        {t('toolPages.library.removeText', { name: removing?.path ?? '' })}
      </ConfirmationDialog>
    </Stack>
  );
}
