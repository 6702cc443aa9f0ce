/**
 * How many uids from `base` on (at most `want`) a user namespace maps, read off its
 * /proc/self/uid_map (lines of `inside outside count`): 0 when `base` itself is not mapped.
 */
export function mappedFrom(base: number, uidMap: string, want: number): number {
  for (const line of uidMap.trim().split('\n')) {
    const [inside, , count] = line.trim().split(/\s+/).map(Number);
    if (inside === undefined || count === undefined || Number.isNaN(inside) || Number.isNaN(count)) continue;
    if (base >= inside && base < inside + count) return Math.min(want, inside + count - base);
  }
  return 0;
}
