// Bounded concurrency for model calls: at most AI_MAX_CONCURRENCY calls run at once in this
// process; the rest wait in line (first come, first served) for at most AI_QUEUE_TIMEOUT_SECONDS,
// or until the caller's own signal aborts. A burst of cases then queues instead of opening
// hundreds of connections to the provider and tripping its rate limits.
import { getEnv } from "@/lib/env";

export class ModelBusyError extends Error {
  override name = "ModelBusyError";
}

interface Waiter {
  start: () => void;
  fail: (error: Error) => void;
}

export class Semaphore {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly capacity: number) {}

  get active(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `task` when a slot is free; gives up waiting after `timeoutMs` or when `signal` aborts. */
  async run<T>(task: () => Promise<T>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<T> {
    await this.acquire(options);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private acquire({ timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
    if (signal?.aborted)
      return Promise.reject(new ModelBusyError("The call was cancelled before it started"));
    if (this.running < this.capacity) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const leave = (error: Error) => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      };
      const onAbort = () =>
        leave(new ModelBusyError("The call was cancelled while waiting for a model slot"));
      const timer = setTimeout(
        () => leave(new ModelBusyError(`No model slot became free within ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        fail: leave,
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    // The slot passes straight to the next waiter, so `running` stays the same.
    if (next) next.start();
    else this.running--;
  }
}

const globalKey = Symbol.for("vetdx.model-semaphore");
type Holder = { [globalKey]?: Semaphore };

/** Runs one model call within the process-wide concurrency limit. */
export function limitModelConcurrency<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const env = getEnv();
  const holder = globalThis as Holder;
  holder[globalKey] ??= new Semaphore(env.AI_MAX_CONCURRENCY);
  return holder[globalKey].run(task, { timeoutMs: env.AI_QUEUE_TIMEOUT_SECONDS * 1000, signal });
}
