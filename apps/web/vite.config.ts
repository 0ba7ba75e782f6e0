import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  // Resolve @zapdesk/shared to its TypeScript sources: no build of the shared package is needed.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The entry holds the shell (MUI), the router, i18n, the API client and the socket: ~190 kB
    // gzipped. Pages are lazy chunks; MUI parts used only by a page stay in that page's chunk.
    chunkSizeWarningLimit: 650,
    rollupOptions: {
      output: {
        // React itself changes least often: its own chunk stays cached across releases.
        manualChunks: (id) => (/node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined),
      },
    },
  },
});
