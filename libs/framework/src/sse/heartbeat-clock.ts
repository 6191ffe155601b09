/** Something a {@link HeartbeatClock} ticks for: an open stream's writer. */
export interface HeartbeatMember {
  /** Called once per period while the member has joined. */
  beat(): void;
}

/**
 * One timer for every open stream that shares a heartbeat period, instead of a timer per stream:
 * a stream joins when it opens and leaves when it ends, which costs a set insertion instead of
 * arming and clearing a timer on every response. The timer is unref'd (it never keeps the
 * process alive) and stops at the first tick that finds no member, so an idle process holds no
 * timer.
 */
export class HeartbeatClock {
  private readonly members = new Set<HeartbeatMember>();
  private timer?: NodeJS.Timeout;

  constructor(readonly periodMs: number) {}

  /** True while the clock's timer is armed. */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Number of members ticked for. */
  get size(): number {
    return this.members.size;
  }

  join(member: HeartbeatMember): void {
    this.members.add(member);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.periodMs);
      this.timer.unref();
    }
  }

  leave(member: HeartbeatMember): void {
    this.members.delete(member);
  }

  private tick(): void {
    if (this.members.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    // A beat may end its stream, which leaves the clock: a Set's iteration allows that.
    for (const member of this.members) member.beat();
  }
}

const clocks = new Map<number, HeartbeatClock>();

/** The process's clock for heartbeats every `periodMs` (one per distinct period). */
export function heartbeatClock(periodMs: number): HeartbeatClock {
  let clock = clocks.get(periodMs);
  if (!clock) {
    clock = new HeartbeatClock(periodMs);
    clocks.set(periodMs, clock);
  }
  return clock;
}
