/** A ticket's or contact's labels as small coloured chips (the list rows, the Kanban cards, the chat header). */
import Cancel from '@mui/icons-material/Cancel';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { TLabelRef } from '@zapdesk/shared/schemas';
import { textOn } from './labels.api';

type Props = { labels: readonly TLabelRef[]; testId?: string; onDelete?: ((label: TLabelRef) => void) | undefined; deleteLabel?: (label: TLabelRef) => string };

export function LabelChips({ labels, testId = 'label-chip', onDelete, deleteLabel }: Props) {
  if (labels.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, minWidth: 0 }}>
      {labels.map((label) => (
        <Chip
          key={label.id}
          label={label.name}
          size="small"
          onDelete={onDelete ? () => onDelete(label) : undefined}
          deleteIcon={onDelete ? <Cancel aria-label={deleteLabel?.(label)} data-testid={`${testId}-remove`} /> : undefined}
          sx={{
            height: 20,
            fontSize: 11,
            fontWeight: 600,
            bgcolor: label.color,
            color: textOn(label.color),
            maxWidth: 160,
            '& .MuiChip-deleteIcon': { color: textOn(label.color), opacity: 0.8, fontSize: 14 },
          }}
          data-testid={testId}
          data-label-id={label.id}
        />
      ))}
    </Box>
  );
}
