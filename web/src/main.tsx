import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiClient } from './api/client';
import { App } from './app/App';
import './app/styles.css';

const client = new ApiClient({ storage: window.sessionStorage });
const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
