import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { CallbackListener } from './callbackListener.js';

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, text: await res.text() };
};

describe('OAuth callback listener (127.0.0.1)', () => {
  it('accepts only its path with its state, answering everything else and waiting on', async () => {
    const listener = new CallbackListener('the-state', null, null);
    await listener.open();
    const base = listener.redirectUri;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(await get(base.replace('/callback', '/other?code=x&state=the-state'))).toEqual({
      status: 404,
      text: 'Not found',
    });
    expect(await get(`${base}?code=x&state=forged`)).toEqual({
      status: 400,
      text: 'Invalid OAuth callback',
    });
    expect(await get(`${base}?code=abc&state=the-state&iss=http%3A%2F%2Fas`)).toEqual({
      status: 200,
      text: 'Authentication complete. You may close this window.',
    });
    await expect(listener.result).resolves.toEqual({ code: 'abc', iss: 'http://as' });
    await listener.close();
  });

  it("ends with the provider's error", async () => {
    const listener = new CallbackListener('s', null, null);
    await listener.open();
    const res = await get(
      `${listener.redirectUri}?error=access_denied&error_description=no&state=s`,
    );
    expect(res).toEqual({ status: 400, text: 'OAuth provider returned `access_denied`: no' });
    await expect(listener.result).rejects.toThrow('OAuth provider returned `access_denied`: no');
  });

  it('takes a pasted redirect URL, ignoring text that is not this login’s', async () => {
    const listener = new CallbackListener('s', null, null);
    await listener.open();
    expect(listener.submit('hello')).toBe(false);
    expect(listener.submit(`${listener.redirectUri}?code=c&state=other`)).toBe(false);
    expect(listener.submit(`${listener.redirectUri}?code=c&state=s`)).toBe(true);
    await expect(listener.result).resolves.toEqual({ code: 'c' });
    await listener.close();
  });

  it('says which setting to change when the configured port is busy', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    const listener = new CallbackListener('s', null, port);
    await expect(listener.open()).rejects.toThrow(
      `the OAuth callback port ${port} on 127.0.0.1 is already in use: set \`mcp_oauth_callback_port\``,
    );
    busy.close();
  });

  it('uses the configured callback URL (path and port)', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const listener = new CallbackListener(
      's',
      new URL(`http://127.0.0.1:${port}/oauth/done`),
      null,
    );
    await listener.open();
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${port}/oauth/done`);
    expect((await get(`http://127.0.0.1:${port}/oauth/done?code=z&state=s`)).status).toBe(200);
    await listener.close();
  });
});
