import CssBaseline from '@mui/material/CssBaseline';
import { enUS, esES, ptBR } from '@mui/material/locale';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastContainer } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';
import { ApiError } from '../core/api/ApiError';
import { AuthProvider } from '../core/auth/AuthProvider';
import { toastError } from '../core/ui/toastError';
import { SocketProvider } from '../core/realtime/SocketProvider';
import { AppRouter } from './AppRouter';
import { RealtimeSync } from './RealtimeSync';
import { currentLanguage, type Language } from '../i18n/i18n';
import { reducedMotion, theme } from './theme';

/** MUI's own texts (pagination, 'No options', 'Close') in the interface's language. */
const MUI_LOCALES: Record<Language, typeof enUS> = { en: enUS, pt: ptBR, es: esES };

const queryClient = new QueryClient({
  // A list that fails to load says why; a 401 needs no toast, the session just ends (to /login).
  // A query with `meta.notFound: 'quiet'` leaves its 404 to its screen (an open ticket that is
  // gone is said once, by the ticket's view).
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (error instanceof ApiError && (error.status === 401 || (error.status === 404 && query.meta?.['notFound'] === 'quiet'))) return;
      toastError(error);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Client errors (no permission, not found) will not change by asking again.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});

export function App() {
  // Re-renders when the language changes.
  useTranslation();
  const language = currentLanguage();
  const lessMotion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true });
  const localized = useMemo(() => createTheme(theme, MUI_LOCALES[language], lessMotion ? reducedMotion : {}), [language, lessMotion]);
  return (
    <ThemeProvider theme={localized}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <SocketProvider>
            <RealtimeSync />
            <AppRouter />
          </SocketProvider>
        </AuthProvider>
      </QueryClientProvider>
      {/* Bottom right: toasts never hide the title bar or a page's main buttons. */}
      <ToastContainer position="bottom-right" autoClose={LIMITS.toastMs} newestOnTop closeOnClick pauseOnFocusLoss={false} theme="light" />
    </ThemeProvider>
  );
}
