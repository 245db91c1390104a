// Retrying runsvc calls whose error says a retry may succeed: a runsvc
// error is retryable if and only if its status carries RetryInfo.

import { setTimeout as sleepMs } from 'node:timers/promises';
import { classify } from './classify.js';
import { DEFAULT_DOMAIN } from './reasons.js';

/** How many calls withRetry makes when no maxAttempts is given. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Calls fn until it resolves, rethrowing the last error once it is not a
 * retryable runsvc error of `domain`, attempts run out, or waiting
 * RetryInfo's delay would pass `deadline`.
 * @template T
 * @param {(remainingMs: number|undefined) => Promise<T>} fn gets the time left until the deadline
 * @param {{maxAttempts?: number, deadline?: Date|number, domain?: string,
 *   sleep?: (ms: number) => Promise<unknown>, now?: () => number,
 *   onRetry?: (attempt: number, err: Error, delayMs: number) => void}} [opts]
 * @returns {Promise<T>}
 */
export async function withRetry(fn, opts = {}) {
  const { maxAttempts = DEFAULT_MAX_ATTEMPTS, domain = DEFAULT_DOMAIN, sleep = sleepMs, now = Date.now, onRetry } = opts;
  const deadline = opts.deadline === undefined ? undefined : Number(opts.deadline);
  for (let attempt = 1; ; attempt++) {
    const left = deadline === undefined ? undefined : Math.max(0, deadline - now());
    try {
      return await fn(left);
    } catch (err) {
      const c = classify(err);
      if (!c.retryable || c.domain !== domain || attempt >= maxAttempts) throw err;
      const delay = c.retryDelayMs ?? 0;
      if (deadline !== undefined && now() + delay > deadline) throw err;
      onRetry?.(attempt, err, delay);
      await sleep(delay);
    }
  }
}
