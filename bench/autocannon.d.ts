// The part of autocannon 8's programmatic API the benchmarks use (the package ships no types).

declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface AutocannonRequest {
    method?: "GET" | "POST";
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each request is sent; what it returns is sent. */
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
    /** Called with each response to this request (the body is buffered as text for it). */
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds. */
    timeout?: number;
    requests?: AutocannonRequest[];
  }

  export interface Histogram {
    average: number;
    p50: number;
    p99: number;
    min: number;
    max: number;
    total: number;
  }

  export interface AutocannonResult {
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  }

  export interface Instance extends EventEmitter {
    /** One event per response: the client, its status, its bytes and its latency in milliseconds. */
    on(event: "response", listener: (client: unknown, status: number, bytes: number, latencyMs: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    stop(): void;
  }

  function autocannon(options: AutocannonOptions, callback: (error: Error | null, result: AutocannonResult) => void): Instance;
  export default autocannon;
}
