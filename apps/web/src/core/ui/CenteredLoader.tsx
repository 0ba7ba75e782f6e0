import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

export function CenteredLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', height: fullScreen ? '100dvh' : '100%', minHeight: 200 }} data-testid="loader">
      <CircularProgress />
    </Box>
  );
}
