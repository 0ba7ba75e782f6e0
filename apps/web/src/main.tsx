import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n/i18n';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

void initI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
