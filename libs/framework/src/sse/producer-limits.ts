import type { LimitsSettings } from '../rate-limit/limits-settings.js';
import { StreamDetachedError, TooManyStreamsError } from './stream-limit.errors.js';

/** How often a producer with no local reader asks whether a reader elsewhere holds a lease. */
const REMOTE_CHECK_MS = 1000;

/** One producer running in this process. */
interface Producer {
  readonly owner: string | undefined;
  readonly address: string;
  readonly controller: AbortController;
  /** Whether a reader in another process holds a lease on the stream (Redis log only). */
  readonly remoteReader?: () => Promise<boolean>;
  readers: number;
  detachedAt?: number;
  timer?: NodeJS.Timeout;
}

/** Who starts a producer, and how to reach it. */
export interface ProducerEntry {
  owner: string | undefined;
  address: string;
  controller: AbortController;
  remoteReader?: () => Promise<boolean>;
}

/**
 * The caps on the resumable producers of this process (`limits.*`): how many one owner (a
 * session) and one address may run at once, how long one runs once no client reads it
 * (`detached_grace`) and how many detached ones an owner may keep (`detached_per_session`, the
 * oldest is stopped first). A stopped producer's signal aborts with {@link StreamDetachedError}.
 */
export class ProducerLimits {
  private readonly producers = new Map<string, Producer>();
  private readonly perOwner = new Map<string, Set<Producer>>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: LimitsSettings) {}

  /** Producers running in this process. */
  get size(): number {
    return this.producers.size;
  }

  /** Producers running with no client reading them. */
  get detached(): number {
    let count = 0;
    for (const producer of this.producers.values())
      if (producer.detachedAt !== undefined) count += 1;
    return count;
  }

  /** @throws TooManyStreamsError when the owner or the address already runs its maximum. */
  admit(owner: string | undefined, address: string): void {
    const { streams_per_session: perOwner, streams_per_address: perAddress } = this.limits;
    if (owner !== undefined && perOwner > 0 && (this.perOwner.get(owner)?.size ?? 0) >= perOwner) {
      throw new TooManyStreamsError('this session', perOwner);
    }
    if (perAddress > 0 && (this.perAddress.get(address) ?? 0) >= perAddress) {
      throw new TooManyStreamsError('this address', perAddress);
    }
  }

  /**
   * Starts tracking producer `key`. Its opener attaches at once ({@link attach}); until a reader
   * leaves it is not detached.
   */
  add(key: string, entry: ProducerEntry): void {
    const producer: Producer = { ...entry, readers: 0 };
    this.producers.set(key, producer);
    this.perAddress.set(entry.address, (this.perAddress.get(entry.address) ?? 0) + 1);
    if (entry.owner !== undefined) {
      let owned = this.perOwner.get(entry.owner);
      if (owned === undefined) this.perOwner.set(entry.owner, (owned = new Set()));
      owned.add(producer);
    }
  }

  /** Stops tracking producer `key` (it ended). */
  remove(key: string): void {
    const producer = this.producers.get(key);
    if (producer === undefined) return;
    this.producers.delete(key);
    clearTimeout(producer.timer);
    const left = (this.perAddress.get(producer.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(producer.address, left);
    else this.perAddress.delete(producer.address);
    if (producer.owner !== undefined) {
      const owned = this.perOwner.get(producer.owner);
      owned?.delete(producer);
      if (owned?.size === 0) this.perOwner.delete(producer.owner);
    }
  }

  /**
   * A client of this process reads stream `key`; returns what to call when it leaves. False
   * when the producer does not run here.
   */
  attach(key: string): (() => void) | false {
    const producer = this.producers.get(key);
    if (producer === undefined) return false;
    producer.readers += 1;
    producer.detachedAt = undefined;
    clearTimeout(producer.timer);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      producer.readers -= 1;
      if (producer.readers === 0 && this.producers.get(key) === producer) this.detach(producer);
    };
  }

  private detach(producer: Producer): void {
    producer.detachedAt = Date.now();
    const { detached_grace: grace, detached_per_session: maxDetached } = this.limits;
    this.arm(producer, grace * 1000);
    if (producer.owner === undefined || maxDetached <= 0) return;
    const detached = [...(this.perOwner.get(producer.owner) ?? [])]
      .filter((other) => other.detachedAt !== undefined && !other.controller.signal.aborted)
      .sort((a, b) => (a.detachedAt ?? 0) - (b.detachedAt ?? 0));
    for (const oldest of detached.slice(0, Math.max(0, detached.length - maxDetached))) {
      this.stop(oldest, `this session already has ${maxDetached} answers nobody reads`);
    }
  }

  private arm(producer: Producer, delayMs: number): void {
    clearTimeout(producer.timer);
    producer.timer = setTimeout(() => this.expire(producer), delayMs);
    producer.timer.unref();
  }

  private expire(producer: Producer): void {
    if (producer.readers > 0 || producer.controller.signal.aborted) return;
    const reason = `no client read it for ${this.limits.detached_grace} s`;
    if (producer.remoteReader === undefined) {
      this.stop(producer, reason);
      return;
    }
    void producer
      .remoteReader()
      .catch(() => false)
      .then((remote) => {
        if (producer.readers > 0) return;
        if (remote) this.arm(producer, REMOTE_CHECK_MS);
        else this.stop(producer, reason);
      });
  }

  private stop(producer: Producer, reason: string): void {
    clearTimeout(producer.timer);
    if (!producer.controller.signal.aborted) {
      producer.controller.abort(new StreamDetachedError(reason));
    }
  }
}
