// The model-call semaphore: never more than its capacity at once, first come first served, and a
// waiter gives up after its queue timeout or when its own signal aborts.
import { describe, expect, it } from "vitest";
import { ModelBusyError, Semaphore } from "./limit-concurrency";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("Semaphore", () => {
  it("runs at most `capacity` tasks at once and all of them eventually", async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (id: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(20);
      running--;
      order.push(id);
      return id;
    };
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((id) => semaphore.run(task(id), { timeoutMs: 5000 })),
    );
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(semaphore.active).toBe(0);
    expect(semaphore.waiting).toBe(0);
  });

  it("gives up waiting after the queue timeout, and frees the slot after a failing task", async () => {
    const semaphore = new Semaphore(1);
    const blocker = semaphore.run(() => sleep(100).then(() => Promise.reject(new Error("model error"))), {
      timeoutMs: 1000,
    });
    await expect(semaphore.run(async () => "late", { timeoutMs: 20 })).rejects.toBeInstanceOf(ModelBusyError);
    await expect(blocker).rejects.toThrow("model error");
    expect(await semaphore.run(async () => "free again", { timeoutMs: 20 })).toBe("free again");
  });

  it("stops waiting when the caller's signal aborts", async () => {
    const semaphore = new Semaphore(1);
    const blocker = semaphore.run(() => sleep(100), { timeoutMs: 1000 });
    const waiting = semaphore.run(async () => "never", { timeoutMs: 5000, signal: AbortSignal.timeout(20) });
    await expect(waiting).rejects.toBeInstanceOf(ModelBusyError);
    expect(semaphore.waiting).toBe(0);
    await blocker;
  });
});
