import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastContainer } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';
import { ApiError } from '../core/api/ApiError';
import { AuthProvider } from '../core/auth/AuthProvider';
import { toastError } from '../core/ui/toastError';
import { SocketProvider } from '../core/realtime/SocketProvider';
import { AppRouter } from './AppRouter';
import { RealtimeSync } from './RealtimeSync';
import { theme } from './theme';

const queryClient = new QueryClient({
  // A list that fails to load says why; a 401 needs no toast, the session just ends (to /login).
  queryCache: new QueryCache({
    onError: (error) => {
      if (!(error instanceof ApiError && error.status === 401)) toastError(error);
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
  return (
    <ThemeProvider theme={theme}>
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
