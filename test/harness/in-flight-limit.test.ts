// The in-flight limit the HTTP client and properties share: never more than max at once, the others
// started in the order they came, and a task's failure frees its slot.

import { describe, expect, it } from "vitest";
import { InFlightLimit } from "../../src/harness/in-flight-limit.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("InFlightLimit", () => {
  it("runs at most max tasks at once, the others in the order they came", async () => {
    const limit = new InFlightLimit(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        limit.run(async () => {
          started.push(i);
          running += 1;
          most = Math.max(most, running);
          await tick();
          running -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("frees the slot of a task that fails, and passes its failure on", async () => {
    const limit = new InFlightLimit(1);
    await expect(limit.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(limit.run(async () => 7)).resolves.toBe(7);
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => new InFlightLimit(0)).toThrow(RangeError);
    expect(() => new InFlightLimit(1.5)).toThrow(RangeError);
  });
});
