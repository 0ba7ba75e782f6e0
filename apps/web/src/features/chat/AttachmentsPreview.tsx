/**
 * Files about to be sent, as a messenger shows them: picked, pasted or dropped files wait here
 * (image thumbnails, other files by name and size) with a caption and a remove button each;
 * nothing leaves before Send. The caption goes with the first file.
 */
import Close from '@mui/icons-material/Close';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '../../core/ui/formatFileSize';

type Props = {
  files: File[];
  caption: string;
  sending: boolean;
  onRemove: (index: number) => void;
  onCancel: () => void;
  onSend: (caption: string) => void;
};

export function AttachmentsPreview({ files, caption: initialCaption, sending, onRemove, onCancel, onSend }: Props) {
  const { t, i18n } = useTranslation();
  const [caption, setCaption] = useState(initialCaption);
  // Thumbnails from the files themselves, released when they leave.
  const previews = useMemo(() => files.map((file) => (file.type.startsWith('image/') ? URL.createObjectURL(file) : null)), [files]);
  useEffect(() => () => previews.forEach((url) => url && URL.revokeObjectURL(url)), [previews]);

  return (
    <Dialog open onClose={sending ? undefined : onCancel} fullWidth maxWidth="sm" data-testid="attachments-preview">
      <DialogTitle>{t('chat.attachmentsTitle', { count: files.length })}</DialogTitle>
      <DialogContent>
        <List disablePadding>
          {files.map((file, index) => (
            <ListItem
              key={`${file.name}-${index}`}
              disableGutters
              secondaryAction={
                <IconButton edge="end" onClick={() => onRemove(index)} disabled={sending} aria-label={t('chat.attachmentRemove', { name: file.name })} data-testid="attachment-remove">
                  <Close />
                </IconButton>
              }
              data-testid="attachment-item"
            >
              {previews[index] ? (
                <Box
                  component="img"
                  src={previews[index]}
                  alt={file.name}
                  sx={{ width: 56, height: 56, objectFit: 'cover', borderRadius: 1, mr: 1.5, flexShrink: 0 }}
                  data-testid="attachment-thumbnail"
                />
              ) : (
                <Box sx={{ width: 56, height: 56, display: 'grid', placeItems: 'center', borderRadius: 1, mr: 1.5, bgcolor: 'action.hover', flexShrink: 0 }}>
                  <InsertDriveFileOutlined color="action" />
                </Box>
              )}
              <Box sx={{ minWidth: 0, pr: 6 }}>
                <Typography variant="body2" fontWeight={600} noWrap data-testid="attachment-name">
                  {file.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" data-testid="attachment-size">
                  {formatFileSize(file.size, i18n.language)}
                </Typography>
              </Box>
            </ListItem>
          ))}
        </List>
        <TextField
          label={t('chat.caption')}
          value={caption}
          onChange={(event) => setCaption(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              if (!sending) onSend(caption);
            }
          }}
          fullWidth
          multiline
          maxRows={4}
          autoFocus
          sx={{ mt: 2 }}
          slotProps={{ htmlInput: { 'data-testid': 'attachment-caption' } }}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} color="inherit" disabled={sending} data-testid="attachments-cancel">
          {t('common.cancel')}
        </Button>
        <Button variant="contained" endIcon={<Send />} onClick={() => onSend(caption)} disabled={sending || files.length === 0} data-testid="attachments-send">
          {t('chat.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
