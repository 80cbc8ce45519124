import { describe, expect, it } from 'vitest';

import { CALL_PATH_INTERRUPT_BUDGET, callPathBudget } from './v8Tiering.js';

function budget(env: NodeJS.ProcessEnv, execArgv: string[] = []) {
  const warnings: string[] = [];
  return { value: callPathBudget(env, execArgv, (m) => warnings.push(m)), warnings };
}

describe('callPathBudget', () => {
  it('is 8192 unless told otherwise', () => {
    expect(budget({})).toEqual({ value: CALL_PATH_INTERRUPT_BUDGET, warnings: [] });
    expect(CALL_PATH_INTERRUPT_BUDGET).toBe(8192);
    expect(budget({ MCPRT_V8_INTERRUPT_BUDGET: ' ' }).value).toBe(8192);
  });

  it('takes a budget from MCPRT_V8_INTERRUPT_BUDGET, or none for `default` and 0', () => {
    expect(budget({ MCPRT_V8_INTERRUPT_BUDGET: '4096' }).value).toBe(4096);
    expect(budget({ MCPRT_V8_INTERRUPT_BUDGET: 'default' }).value).toBeNull();
    expect(budget({ MCPRT_V8_INTERRUPT_BUDGET: '0' }).value).toBeNull();
  });

  it('leaves V8 alone when node was given --interrupt-budget ', () => {
    expect(budget({}, ['--interrupt-budget=1000']).value).toBeNull();
    expect(budget({}, ['--interrupt_budget', '1000']).value).toBeNull();
    expect(budget({}, ['--interrupt-budget-for-feedback-allocation=10']).value).toBe(8192);
  });

  it('warns about a value that is not a budget, naming it, and uses the default', () => {
    for (const raw of ['12k', '-5', '1023', '1000001', '2.5']) {
      const { value, warnings } = budget({ MCPRT_V8_INTERRUPT_BUDGET: raw });
      expect(value).toBe(8192);
      expect(warnings).toEqual([
        `MCPRT_V8_INTERRUPT_BUDGET=${JSON.stringify(raw)} is not a budget (an integer from 1024 to 1000000, or "default"); using 8192`,
      ]);
    }
  });
});
