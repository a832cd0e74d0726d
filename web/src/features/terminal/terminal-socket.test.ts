import { describe, expect, it } from 'vitest';
import { terminalUrl } from './terminal-socket';

describe('terminal socket', () => {
  it('uses the page host with ws or wss and carries the ticket, namespace and container', () => {
    const target = { resource: 'pods', name: 'web 1', namespace: 'shop' };
    expect(terminalUrl({ protocol: 'http:', host: 'localhost:8080' }, target, 'abc', 'app')).toBe(
      'ws://localhost:8080/api/pods/web%201/terminal?namespace=shop&ticket=abc&container=app',
    );
    expect(terminalUrl({ protocol: 'https:', host: 'ph.example' }, target, 't', 'c').startsWith('wss://ph.example/')).toBe(true);
  });
});
