// The tasks wire of both eras as read off a server: which calls go as tasks, the task in an
// answer, and what a hostile or broken server's task is refused for (no id, an unknown status,
// an id too long or holding control characters) — the call then fails naming it.
import { describe, expect, it } from 'vitest';

import { createdTask, offersTasks, pollDelay, taskState, taskWireFor } from './taskWire.js';

const tool = (taskSupport?: string) => () =>
  taskSupport === undefined ? { name: 't' } : { name: 't', execution: { taskSupport } };
const LEGACY = { tasks: { requests: { tools: { call: {} } } } };
const MODERN = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe('taskWireFor', () => {
  it('2026: the server’s extension decides, whatever the tool', () => {
    expect(taskWireFor(true, MODERN, tool(), false)).toBe('extension');
    expect(taskWireFor(true, LEGACY, tool('required'), true)).toBeNull();
  });

  it('2025: required always, optional when asked, never without the capability', () => {
    expect(taskWireFor(false, LEGACY, tool('required'), false)).toBe('core');
    expect(taskWireFor(false, LEGACY, tool('optional'), false)).toBeNull();
    expect(taskWireFor(false, LEGACY, tool('optional'), true)).toBe('core');
    expect(taskWireFor(false, LEGACY, tool('forbidden'), true)).toBeNull();
    expect(taskWireFor(false, {}, tool('required'), true)).toBeNull();
  });
});

describe('offersTasks', () => {
  it('either era’s capability, and nothing else', () => {
    expect(offersTasks(LEGACY)).toBe(true);
    expect(offersTasks(MODERN)).toBe(true);
    expect(offersTasks({ tools: {} })).toBe(false);
    expect(offersTasks(undefined)).toBe(false);
  });
});

describe('taskState', () => {
  it('reads both eras’ fields', () => {
    expect(
      createdTask('core', { task: { taskId: 'a', status: 'working', pollInterval: 50 } }),
    ).toEqual({ taskId: 'a', status: 'working', pollIntervalMs: 50 });
    expect(createdTask('extension', { resultType: 'complete', content: [] })).toBeNull();
    expect(
      createdTask('extension', { resultType: 'task', taskId: 'b', status: 'working' }),
    ).toEqual({ taskId: 'b', status: 'working' });
  });

  it.each([
    [{ status: 'working' }, 'the server sent a task without a taskId'],
    [{ taskId: 'x', status: 'sleeping' }, 'the server sent task x with an unknown status sleeping'],
    [{ taskId: 'x'.repeat(257), status: 'working' }, 'not a plain string of at most 256'],
    [{ taskId: 'a\u001b[31mb', status: 'working' }, 'not a plain string of at most 256'],
  ])('refuses %j', (raw, message) => {
    expect(() => taskState(raw)).toThrow(message);
  });

  it('bounds the poll interval to 100 ms – 5 s', () => {
    expect(pollDelay({ taskId: 'a', status: 'working', pollIntervalMs: 1 })).toBe(100);
    expect(pollDelay({ taskId: 'a', status: 'working', pollIntervalMs: 60_000 })).toBe(5000);
    expect(pollDelay({ taskId: 'a', status: 'working' })).toBe(1000);
  });
});
