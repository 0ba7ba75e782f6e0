/** One line of the new-ticket search: a contact, a customer of another queue (her number only), or 'Add contact'. */
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { initials } from '../../core/ui/initials';
import type { Option } from './NewTicketModal';

type Props = { props: HTMLAttributes<HTMLLIElement>; option: Option; icon: ReactNode };

export function NewTicketOption({ props, option, icon }: Props) {
  const { t } = useTranslation();
  if ('kind' in option && option.kind === 'add') {
    return (
      <Box component="li" {...props} sx={{ gap: 1.5 }} data-testid="new-ticket-add-option">
        {icon}
        <Typography variant="body2">{t('newTicket.addContact', { name: option.text })}</Typography>
      </Box>
    );
  }
  const hidden = 'kind' in option;
  return (
    <Box component="li" {...props} sx={{ gap: 1.5 }} data-testid={hidden ? 'new-ticket-number-option' : 'new-ticket-option'}>
      <Avatar src={hidden ? undefined : option.profilePicUrl || undefined} sx={{ width: 32, height: 32, fontSize: 14 }}>
        {hidden ? '#' : initials(option.name)}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" noWrap>
          {hidden ? option.number : option.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div">
          {hidden ? `${t('newTicketByNumber.hidden')}. ${t('newTicketByNumber.hiddenHelp')}` : option.number}
        </Typography>
      </Box>
    </Box>
  );
}
