/** The connection a tool page works on: the user's choice, else the connected default one. */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import { useWhatsapps } from './whatsapps.api';

/**
 * The chosen connection's id (the connected default first, as a user would pick it) and the
 * list, for the bulk and group tools: WhatsApp's, so Instagram connections are not offered.
 */
export function useChosenConnection(): { whatsappId: number | undefined; choose: (id: number) => void; connections: TWhatsapp[] } {
  const connections = (useWhatsapps().data ?? []).filter((w) => w.channel !== 'instagram');
  const [chosen, choose] = useState<number | undefined>();
  const fallback = connections.find((w) => w.status === 'CONNECTED' && w.isDefault) ?? connections.find((w) => w.status === 'CONNECTED') ?? connections[0];
  return { whatsappId: chosen ?? fallback?.id, choose, connections };
}

type Props = { whatsappId: number | undefined; connections: TWhatsapp[]; onChange: (id: number) => void; error?: string | undefined; size?: 'small' | 'medium'; testId: string };

export function ConnectionSelect({ whatsappId, connections, onChange, error, size = 'medium', testId }: Props) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size={size}
      label={t('campaigns.form.connection')}
      value={whatsappId ?? ''}
      onChange={(event) => onChange(Number(event.target.value))}
      error={Boolean(error)}
      helperText={error}
      sx={{ minWidth: { sm: 240 } }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      {connections.map((w) => (
        <MenuItem key={w.id} value={w.id}>
          {`${w.name} · ${t(`connections.statuses.${w.status}`)}`}
        </MenuItem>
      ))}
    </TextField>
  );
}
