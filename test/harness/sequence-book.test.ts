// The senders' next sequence numbers that a run's workers keep together (src/harness/sequence-book.ts):
// what one worker marks taken, another reads on the same buffer, so that two files sending from one
// account at once do not each ask for the number the other just took.

import { describe, expect, it } from "vitest";
import { SequenceBook } from "../../src/harness/sequence-book.ts";

const address = (last: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : 0));

describe("SequenceBook", () => {
  it("knows nothing of a sender it has not booked, and only goes up", () => {
    const book = new SequenceBook();
    expect(book.next(address(1))).toBe(0n);
    book.markUsed(address(1), 4n);
    expect(book.next(address(1))).toBe(5n);
    book.markUsed(address(1), 2n);
    expect(book.next(address(1))).toBe(5n);
    expect(book.next(address(2))).toBe(0n);
  });

  it("takes back only the last number marked", () => {
    const book = new SequenceBook();
    book.markUsed(address(7), 3n);
    book.forget(address(7), 2n);
    expect(book.next(address(7))).toBe(4n);
    book.forget(address(7), 3n);
    expect(book.next(address(7))).toBe(3n);
  });

  it("is one book for every holder of its buffer, as the run's workers are", () => {
    const buffer = SequenceBook.buffer();
    const one = new SequenceBook(buffer);
    const other = new SequenceBook(buffer);
    one.markUsed(address(9), 10n);
    expect(other.next(address(9))).toBe(11n);
    other.markUsed(address(9), 11n);
    expect(one.next(address(9))).toBe(12n);
  });

  it("keeps many senders apart", () => {
    const book = new SequenceBook();
    for (let i = 0; i < 200; i++)
      book.markUsed(
        address(i % 256).map((b, j) => (j === 0 ? i >> 8 : b)),
        BigInt(i),
      );
    for (let i = 0; i < 200; i++) expect(book.next(address(i % 256).map((b, j) => (j === 0 ? i >> 8 : b)))).toBe(BigInt(i) + 1n);
  });
});
