import { describe, expect, it } from 'vitest';

import { bearerMatches, checkListenerOptions, isLoopbackHost } from './listenerGuard.js';

const TOKEN = 'a-token-of-enough-length';

describe('checkListenerOptions', () => {
  const check = (options: Parameters<typeof checkListenerOptions>[0]) => () =>
    checkListenerOptions(options, 'HTTP');

  it('allows loopback in either mode, with or without TLS', () => {
    for (const host of ['127.0.0.1', '127.8.9.1', 'localhost', '::1', '[::1]']) {
      expect(check({ host, token: TOKEN, tls: false, authMode: 'token' })).not.toThrow();
      expect(check({ host, token: TOKEN, tls: true, authMode: 'token' })).not.toThrow();
      expect(check({ host, tls: true, authMode: 'oauth' })).not.toThrow();
      expect(check({ host, tls: false, authMode: 'oauth' })).not.toThrow();
    }
  });

  it('allows beyond loopback only with TLS and OAuth', () => {
    for (const host of ['0.0.0.0', '192.0.2.7', '::', '[2001:db8::1]', 'gw.example']) {
      expect(check({ host, tls: true, authMode: 'oauth' })).not.toThrow();
    }
  });

  it('refuses plain HTTP beyond loopback, naming what is missing', () => {
    expect(check({ host: '0.0.0.0', token: TOKEN, tls: false, authMode: 'token' })).toThrow(
      'refusing to listen on non-loopback host 0.0.0.0: plain HTTP is loopback-only; use https:// with --tls-cert and --tls-key and [serve.auth] mode = "oauth"',
    );
    expect(check({ host: '[2001:db8::1]', tls: false, authMode: 'oauth' })).toThrow(
      'refusing to listen on non-loopback host 2001:db8::1: plain HTTP is loopback-only',
    );
  });

  it('refuses TLS with the static token beyond loopback', () => {
    for (const authMode of ['token', undefined] as const) {
      expect(
        check({ host: '192.0.2.7', token: TOKEN, tls: true, ...(authMode ? { authMode } : {}) }),
      ).toThrow(
        'refusing to listen on non-loopback host 192.0.2.7: the static token is loopback-only; beyond loopback set [serve.auth] mode = "oauth"',
      );
    }
  });

  it('keeps the app-server rules: loopback-only unless allowed, whatever the TLS', () => {
    expect(() => checkListenerOptions({ host: '[::2]', token: TOKEN }, 'WebSocket')).toThrow(
      'refusing to listen on non-loopback host ::2 (WebSocket listener is loopback-only)',
    );
    expect(() =>
      checkListenerOptions({ host: '::2', token: TOKEN, allowNonLoopback: true }, 'WebSocket'),
    ).not.toThrow();
  });

  it('refuses a short token, and checks none when there is none', () => {
    expect(check({ host: '127.0.0.1', token: 'short', tls: false })).toThrow(
      'the HTTP token must be at least 16 characters',
    );
    expect(check({ host: '127.0.0.1', tls: false, authMode: 'oauth' })).not.toThrow();
  });
});

describe('isLoopbackHost and bearerMatches', () => {
  it('knows loopback', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });

  it('matches exactly `Bearer <token>`', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
