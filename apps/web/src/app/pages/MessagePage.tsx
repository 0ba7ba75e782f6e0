import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Props = { icon: ReactNode; title: string; body: string; action?: { label: string; to: string }; testId: string };

/** A centred card with one message: coming soon, no permission, not found. */
export function MessagePage({ icon, title, body, action, testId }: Props) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', height: '100%', p: 3 }} data-testid={testId}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, maxWidth: 480, textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5 }}>
        <Box sx={{ width: 72, height: 72, borderRadius: '50%', display: 'grid', placeItems: 'center', bgcolor: 'rgba(0, 121, 107, 0.1)', color: 'primary.main', '& svg': { fontSize: 36 } }}>
          {icon}
        </Box>
        <Typography variant="h5" component="h1" fontWeight={700}>
          {title}
        </Typography>
        <Typography color="text.secondary">{body}</Typography>
        {action ? (
          <Button component={Link} to={action.to} variant="contained" sx={{ mt: 1 }}>
            {action.label}
          </Button>
        ) : null}
      </Paper>
    </Box>
  );
}
