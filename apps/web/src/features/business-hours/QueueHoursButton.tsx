/** The clock button of a queue's row: opens its hours; coloured when the queue has its own. */
import ScheduleIcon from '@mui/icons-material/Schedule';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TQueue } from '@zapdesk/shared/schemas';
import { HoursDialog } from './HoursDialog';
import { useBusinessHours } from './businessHours.api';

export function QueueHoursButton({ queue }: { queue: TQueue }) {
  const { t } = useTranslation();
  const entries = useBusinessHours();
  const [open, setOpen] = useState(false);
  const entry = entries.data?.find((e) => e.queueId === queue.id);
  const own = Boolean(entry?.hours);
  const label = own ? `${t('hours.queueButton')} · ${t('hours.ownHours')}` : t('hours.queueButton');
  return (
    <>
      <Tooltip title={label}>
        <span>
          <IconButton size="small" onClick={() => setOpen(true)} disabled={entries.isPending} color={own ? 'primary' : 'default'} aria-label={label} data-testid="queue-hours">
            <ScheduleIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      {open ? <HoursDialog queueId={queue.id} queueName={queue.name} entry={entry} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
