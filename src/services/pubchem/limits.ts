/**
 * PubChem's limits: 5 requests per second, 400 per minute and 300 s of running time per minute,
 * per client; excess gets 503 PUGREST.ServerBusy. Every answer reports the state in
 * X-Throttling-Control as PubChem does: "Request Count status: Green (12%), Request Time status:
 * Green (0%), Service status: Green (5%)", Yellow from 50%, Red from 75%, Black when refused.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { perIp } from '../../core/limits/limiter.js';
import type { LimitRule } from '../../core/limits/policy.js';

export const RUNNING_TIME_MS = 300_000;

export function pubchemLimits(runningTimeMs = RUNNING_TIME_MS): LimitRule[] {
  return [perIp('per-second', 5, 1000), perIp('per-minute', 400, 60_000), { name: 'running-time', limit: runningTimeMs, windowMs: 60_000, unit: 'ms', key: (s) => `ip:${s.ip}` }];
}

const pct = (f: number) => Math.round(Math.min(1, Math.max(0, f)) * 100);

/** The colour of a share as clients read it (from the rounded percentage they see). */
function colour(fraction: number, refused: boolean): string {
  if (refused) return 'Black';
  const p = pct(fraction);
  return p >= 75 ? 'Red' : p >= 50 ? 'Yellow' : 'Green';
}

let last: { at: number; elu: EventLoopUtilization; value: number } | undefined;

/** How busy this process is: the event loop's utilization over the last second or so. */
export function serviceLoad(): number {
  const now = Date.now();
  if (!last) {
    last = { at: now, elu: performance.eventLoopUtilization(), value: 0 };
    return 0;
  }
  if (now - last.at >= 1000) {
    const elu = performance.eventLoopUtilization();
    last = { at: now, elu, value: performance.eventLoopUtilization(elu, last.elu).utilization };
  }
  return last.value;
}

export function throttlingControl(count: number, time: number, refusedCount: boolean, refusedTime: boolean): string {
  const service = serviceLoad();
  const line =
    `Request Count status: ${colour(count, refusedCount)} (${pct(count)}%), ` +
    `Request Time status: ${colour(time, refusedTime)} (${pct(time)}%), ` +
    `Service status: ${colour(service, false)} (${pct(service)}%)`;
  return refusedCount || refusedTime ? `${line}, too many requests per second or blacklisted` : line;
}

export function limitHeaders(usage: { rule: LimitRule; fraction: number }[], allowed: boolean): Record<string, string> {
  const of = (name: string) => usage.find((u) => u.rule.name === name)?.fraction ?? 0;
  const count = Math.max(of('per-second'), of('per-minute'));
  const time = of('running-time');
  return { 'X-Throttling-Control': throttlingControl(count, time, !allowed && count >= 1, !allowed && time >= 1 && count < 1) };
}
