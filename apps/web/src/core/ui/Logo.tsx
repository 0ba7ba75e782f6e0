import Box from '@mui/material/Box';

/** The app mark: a chat bubble on a rounded square. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Box component="svg" viewBox="0 0 64 64" sx={{ width: size, height: size, flexShrink: 0 }} aria-hidden>
      <rect width="64" height="64" rx="14" fill="#FFFFFF" fillOpacity={0.18} />
      <path d="M18 20h28a4 4 0 0 1 4 4v14a4 4 0 0 1-4 4H30l-9 7v-7h-3a4 4 0 0 1-4-4V24a4 4 0 0 1 4-4z" fill="#fff" />
      <circle cx="25" cy="31" r="2.6" fill="#00796B" />
      <circle cx="32" cy="31" r="2.6" fill="#00796B" />
      <circle cx="39" cy="31" r="2.6" fill="#00796B" />
    </Box>
  );
}
