import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiClient } from './api/client';
import { App } from './app/App';
import './app/styles.css';
import './app/layout-fit.css';
import { applyTheme, storedTheme } from './features/theme/theme';

// The stored colour scheme (or the system's) before the first paint.
applyTheme(storedTheme());
const client = new ApiClient({ storage: window.sessionStorage });
// The end of an SSO sign-in: take the session from the fragment, then leave the URL clean.
if (window.location.pathname === '/login/sso') {
  client.adoptSsoFragment(window.location.hash);
  window.history.replaceState(null, '', '/');
}
const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
