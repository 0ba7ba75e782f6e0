/** The small label picker: a tag button opening the labels with ticks; a click puts a label on or takes it off. */
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TLabelRef } from '@zapdesk/shared/schemas';
import { useLabels } from './labels.api';

type Props = { selected: readonly TLabelRef[]; onToggle: (label: TLabelRef, on: boolean) => Promise<void>; testId: string };

export function LabelPicker({ selected, onToggle, testId }: Props) {
  const { t } = useTranslation();
  const labels = useLabels();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const chosen = new Set(selected.map((label) => label.id));

  const toggle = async (label: TLabelRef) => {
    setBusy(label.id);
    try {
      await onToggle(label, !chosen.has(label.id));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Tooltip title={t('labels.pick')}>
        <IconButton size="small" onClick={(event) => setAnchor(event.currentTarget)} aria-label={t('labels.pick')} aria-haspopup="menu" data-testid={testId}>
          <LocalOfferOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { maxHeight: 360, minWidth: 220 } } }} data-testid={`${testId}-menu`}>
        {(labels.data ?? []).map((label) => (
          <MenuItem key={label.id} dense disabled={busy !== null} onClick={() => void toggle(label)} data-testid="label-option" data-label-id={label.id} data-checked={chosen.has(label.id)}>
            <Checkbox size="small" checked={chosen.has(label.id)} sx={{ p: 0.5, mr: 1 }} tabIndex={-1} />
            <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: label.color, mr: 1.25, flexShrink: 0 }} />
            <ListItemText primary={label.name} />
          </MenuItem>
        ))}
        {labels.data && labels.data.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1, maxWidth: 260 }} data-testid="labels-none">
            {t('labels.noneDefined')}
          </Typography>
        ) : null}
      </Menu>
    </>
  );
}
