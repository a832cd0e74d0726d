import { describe, expect, it } from 'vitest';
import { terminalUrl } from './terminal-socket';

describe('terminal socket', () => {
  it('uses the page host with ws or wss and carries the ticket, namespace and container', () => {
    const target = { resource: 'pods', name: 'web 1', namespace: 'shop' };
    expect(terminalUrl({ protocol: 'http:', host: 'localhost:8080' }, target, { ticket: 'abc', container: 'app' })).toBe(
      'ws://localhost:8080/api/pods/web%201/terminal?namespace=shop&ticket=abc&container=app',
    );
    expect(terminalUrl({ protocol: 'https:', host: 'ph.example' }, target, { ticket: 't', container: 'c' }).startsWith('wss://ph.example/')).toBe(true);
    // The socket of a pod on another cluster names it, like every request of that cluster's pages.
    expect(terminalUrl({ protocol: 'http:', host: 'localhost:8080' }, target, { ticket: 'abc', container: 'app', cluster: 'staging' })).toBe(
      'ws://localhost:8080/api/pods/web%201/terminal?namespace=shop&ticket=abc&container=app&cluster=staging',
    );
  });
});
