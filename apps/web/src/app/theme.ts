import { createTheme, type ThemeOptions } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#00796B', light: '#48A999', dark: '#004C40', contrastText: '#FFFFFF' },
    // WhatsApp's own green (#25D366) is too light for text or white text (1.98:1); this one reads at 5:1.
    secondary: { main: '#15803D', light: '#25D366', contrastText: '#FFFFFF' },
    background: { default: '#F4F6F8', paper: '#FFFFFF' },
    text: { primary: '#1F2933', secondary: '#5F6B7A' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", "Roboto", "Helvetica Neue", "Noto Sans", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
    h5: { letterSpacing: '-0.01em' },
  },
  components: {
    // A visible focus ring on everything the keyboard reaches (MUI's ripple alone is faint).
    MuiCssBaseline: {
      styleOverrides: {
        // ':root' outweighs the 'outline: 0' of MUI's buttons.
        ':root :focus-visible': { outline: '2px solid #00796B', outlineOffset: 2 },
        ':root .MuiAppBar-root :focus-visible': { outlineColor: '#FFFFFF' },
        // Text fields show their focus with their own border.
        ':root .MuiInputBase-input:focus-visible': { outline: 'none' },
      },
    },
    MuiButton: { defaultProps: { disableElevation: true } },
    // MUI's grey avatar with near-white initials reads at 1.7:1; initials need 4.5:1.
    MuiAvatar: { styleOverrides: { colorDefault: { backgroundColor: '#5F6B7A', color: '#FFFFFF' } } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
    MuiPaper: { styleOverrides: { outlined: { borderColor: '#E3E8EE' } } },
    MuiTableCell: {
      styleOverrides: {
        head: { fontWeight: 600, color: '#5F6B7A', backgroundColor: '#F9FAFB', whiteSpace: 'nowrap' },
      },
    },
    MuiDialogTitle: { styleOverrides: { root: { fontWeight: 700 } } },
    MuiListItemButton: {
      styleOverrides: {
        root: {
          borderRadius: 8,
          '&.Mui-selected': { backgroundColor: 'rgba(0, 121, 107, 0.12)', color: '#00695C' },
          '&.Mui-selected .MuiListItemIcon-root': { color: '#00796B' },
        },
      },
    },
  },
});

/**
 * For people who ask their system for less motion (prefers-reduced-motion: reduce): MUI's
 * transitions and ripples are off, dialogs and menus open and close at once, and the spinners and
 * skeletons stand still. The toasts' progress bar keeps running: its end is what closes a toast.
 */
export const reducedMotion: ThemeOptions = {
  transitions: {
    create: () => 'none',
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  },
  components: {
    MuiButtonBase: { defaultProps: { disableRipple: true } },
    MuiCssBaseline: {
      styleOverrides: {
        '*:not(.Toastify__progress-bar--animated), *::before, *::after': {
          animationDuration: '0.01ms !important',
          animationIterationCount: '1 !important',
          transitionDuration: '0.01ms !important',
          scrollBehavior: 'auto !important',
        },
      },
    },
  },
};
