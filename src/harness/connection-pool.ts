// The HTTP client's connections, one undici Client (one connection) each, so that an exchange knows
// whether it went out on a connection that had served an earlier answer. A server may close an idle
// kept-alive connection at any time (RFC 9112 §9.3.1): a request written as that close is on its way
// fails before any answer, exactly as if the node had dropped it, and only the connection having been
// reused tells the two apart. undici's Agent pools its connections out of sight, so it cannot tell.

import { Client } from "./undici-agent.ts";

export type ConnectionOptions = NonNullable<ConstructorParameters<typeof Client>[1]>;

/**
 * "pooled": the most recently used idle connection to the origin, or a new one when none is idle.
 * "own": a new connection for this exchange alone, closed after it, which no earlier idle time can
 * have let the server close.
 */
export type ConnectionChoice = "pooled" | "own";

/** A connection lent to one exchange. */
export interface Lease {
  readonly dispatcher: Client;
  /**
   * After the exchange: whether it went out on a connection opened before it (one that had carried an
   * earlier exchange), rather than on one opened for it.
   */
  reused(): boolean;
  /** Ends the loan: a pooled connection becomes idle again, an own one is closed. */
  release(): void;
}

export class ConnectionPool {
  readonly #options: ConnectionOptions;
  /** Per origin, idle connections, the most recently used last. At most as many as were once lent at once. */
  readonly #idle = new Map<string, Client[]>();
  readonly #open = new Set<Client>();
  /** Connections attempted per Client: unchanged over an exchange means it went out on the one already open. */
  readonly #attempts = new WeakMap<Client, number>();

  constructor(options: ConnectionOptions) {
    this.#options = options;
  }

  lease(origin: string, choice: ConnectionChoice): Lease {
    const client = (choice === "pooled" ? this.#idle.get(origin)?.pop() : undefined) ?? this.#create(origin);
    const before = this.#attempts.get(client) ?? 0;
    let released = false;
    return {
      dispatcher: client,
      reused: () => before > 0 && this.#attempts.get(client) === before,
      release: () => {
        if (released) return;
        released = true;
        if (choice === "own" || client.closed || client.destroyed) {
          this.#open.delete(client);
          if (!client.closed && !client.destroyed) client.close().catch(() => undefined);
          return;
        }
        const idle = this.#idle.get(origin);
        if (idle === undefined) this.#idle.set(origin, [client]);
        else idle.push(client);
      },
    };
  }

  /** Closes every connection once its exchange (if any) has ended. */
  async close(): Promise<void> {
    this.#idle.clear();
    await Promise.all([...this.#open].map((c) => c.close().catch(() => undefined)));
  }

  /** Drops every connection at once, answered or not. */
  async destroy(): Promise<void> {
    this.#idle.clear();
    await Promise.all([...this.#open].map((c) => c.destroy().catch(() => undefined)));
  }

  #create(origin: string): Client {
    const client = new Client(origin, this.#options);
    this.#open.add(client);
    this.#attempts.set(client, 0);
    // "connect" comes before the request is written, "connectionError" in the same turn as the request
    // hears of the failure (undici lib/dispatcher/client.js connect, handleConnectError): either is
    // counted by the time an exchange's promise has settled. A failed attempt counts: the request did
    // not go out on an earlier connection.
    const attempted = () => this.#attempts.set(client, (this.#attempts.get(client) ?? 0) + 1);
    client.on("connect", attempted);
    client.on("connectionError", attempted);
    return client;
  }
}
