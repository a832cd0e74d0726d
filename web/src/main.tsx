import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiClient } from './api/client';
import { App } from './app/App';
import './app/styles.css';
import './app/layout-fit.css';
import { applyTheme, storedTheme } from './features/theme/theme';

// The stored colour scheme (or the system's) before the first paint.
applyTheme(storedTheme());
// The session is the HttpOnly cookie every tab shares; the tabs tell each other of a login or logout.
const client = new ApiClient({ channel: new BroadcastChannel('pilothouse.session') });
// The end of an SSO sign-in set the cookie: leave the URL (and the fragment the service also sends) clean.
if (window.location.pathname === '/login/sso') window.history.replaceState(null, '', '/');
void client.restore();
const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
