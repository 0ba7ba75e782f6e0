/**
 * The connection's groups to act on: search, select all (of those shown), and per group its
 * name, description, size, whether the connection is admin and whether it is closed.
 */
import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { foldText } from '@zapdesk/shared/domain';
import type { TGroup } from '@zapdesk/shared/groups';
import { SearchField } from '../../core/ui/SearchField';

type Props = { groups: TGroup[]; selected: Set<string>; onChange: (selected: Set<string>) => void; adminOnly: boolean };

export function GroupPicker({ groups, selected, onChange, adminOnly }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const needle = foldText(search.trim());
    return groups.filter((g) => !needle || foldText(`${g.subject} ${g.description}`).includes(needle));
  }, [groups, search]);
  const allShown = shown.length > 0 && shown.every((g) => selected.has(g.id));
  const someShown = shown.some((g) => selected.has(g.id));

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  const toggleAll = () => {
    const next = new Set(selected);
    for (const g of shown) {
      if (allShown) next.delete(g.id);
      else next.add(g.id);
    }
    onChange(next);
  };

  return (
    <Stack gap={1} sx={{ minHeight: 0 }} data-testid="group-picker">
      <SearchField value={search} onChange={setSearch} placeholder={t('groupTools.search')} testId="group-search" fullWidth />
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1} flexWrap="wrap">
        <FormControlLabel
          control={
            <Checkbox
              checked={allShown}
              indeterminate={!allShown && someShown}
              onChange={toggleAll}
              disabled={shown.length === 0}
              slotProps={{ input: { 'aria-label': t('groupTools.selectAll') } }}
              data-testid="group-select-all"
            />
          }
          label={t('groupTools.selectAll')}
        />
        <Typography variant="body2" color="text.secondary" data-testid="group-selected-count">
          {t('groupTools.selected', { count: selected.size, total: groups.length })}
        </Typography>
      </Stack>
      {adminOnly ? (
        <Typography variant="caption" color="text.secondary">
          {t('groupTools.adminOnlyHint')}
        </Typography>
      ) : null}
      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflowY: 'auto', maxHeight: { xs: 320, lg: 520 } }}>
        {shown.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }} data-testid="group-list-empty">
            {groups.length === 0 ? t('groupTools.noGroups') : t('groupTools.noMatch')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {shown.map((g) => (
              <ListItem key={g.id} disablePadding divider data-testid="group-row" data-group-id={g.id} data-admin={g.isAdmin}>
                <ListItemButton onClick={() => toggle(g.id)}>
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <Checkbox edge="start" checked={selected.has(g.id)} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-label': g.subject || g.id } }} />
                  </ListItemIcon>
                  <ListItemText
                    primary={
                      <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap">
                        <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
                          {g.subject || g.id}
                        </Typography>
                        {g.isAdmin ? <Chip size="small" color="primary" variant="outlined" label={t('groupTools.admin')} /> : null}
                        {g.announce ? <Chip size="small" icon={<LockOutlined />} label={t('groupTools.closed')} /> : null}
                      </Stack>
                    }
                    secondary={`${t('groupTools.participants', { count: g.size })}${g.description ? ` · ${g.description}` : ''}`}
                    slotProps={{ secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Box>
    </Stack>
  );
}
