// The faults of a node that behaves only while lightly used (src/node/faults/concurrency.ts): each shows
// its deviation when many connections read at once (or two submissions race, or a module was published
// after the version a walk reads), and none when the same requests go one at a time on a few connections.

import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "undici";
import { CONNECTIONS_UNDER_LOAD } from "../../src/node/faults/connections.ts";
import { startNode, type RunningNode } from "../../src/node/index.ts";
import { ManualClock } from "../../src/node/ledger/index.ts";
import { call, fixtureAccount, postJson, signedTransfer, transferJson } from "./http/helpers.ts";

/** Connections of the load phase: above CONNECTIONS_UNDER_LOAD, as the load mode's clients are in its self-check. */
const LOAD_CONNECTIONS = 48;
/** Connections of the idle phase: as few as an idle client keeps. */
const IDLE_CONNECTIONS = 3;
/** How long each phase runs, and how many requests a connection sends at most. */
const PHASE_MS = 1_500;
const MAX_REQUESTS_PER_CONNECTION = 400;
/** The pause between two requests sent one at a time: PHASE_MS holds a few hundred of them and ~30 blocks. */
const PACE_MS = 2;

interface Answer {
  readonly status: number;
  readonly ledgerVersion: bigint;
  readonly body: string;
}

/** Fast blocks, so that several commit while a phase runs. */
function busyNode(fault: string): Promise<RunningNode> {
  return startNode({ faults: [fault], blockIntervalMs: 50 });
}

function openClients(node: RunningNode, count: number): Client[] {
  const origin = new URL(node.url).origin;
  return Array.from({ length: count }, () => new Client(origin, { pipelining: 1 }));
}

async function closeClients(clients: readonly Client[]): Promise<void> {
  await Promise.all(clients.map((c) => c.close()));
}

async function get(client: Client, path: string): Promise<Answer> {
  const response = await client.request({ path: `/v1${path}`, method: "GET" });
  const body = await response.body.text();
  const version = response.headers["x-node-ledger-version"];
  if (typeof version !== "string") throw new Error(`no X-NODE-LEDGER-VERSION on ${path} (${response.statusCode})`);
  return { status: response.statusCode, ledgerVersion: BigInt(version), body };
}

/** Each client sends `path` one request after another, all clients at once, for PHASE_MS (bounded in count). */
async function readAtOnce(clients: readonly Client[], path: string): Promise<Answer[]> {
  const deadline = Date.now() + PHASE_MS;
  const answers: Answer[] = [];
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < MAX_REQUESTS_PER_CONNECTION && Date.now() < deadline; i++) answers.push(await get(client, path));
    }),
  );
  return answers;
}

/**
 * One request at a time, round the clients, for PHASE_MS (bounded in count): each answer in the order it
 * arrived. Paced, as an idle client sends: the ledger info answers in a fraction of a millisecond, and
 * the count's bound, sent back to back, could be over before the next block commits.
 */
async function readOneAtATime(clients: readonly Client[], path: string): Promise<Answer[]> {
  const deadline = Date.now() + PHASE_MS;
  const answers: Answer[] = [];
  for (let i = 0; i < MAX_REQUESTS_PER_CONNECTION * clients.length && Date.now() < deadline; i++) {
    answers.push(await get(clients[i % clients.length] as Client, path));
    await sleep(PACE_MS);
  }
  return answers;
}

/** The summaries of an answer newer than the version its headers name. */
function summariesAfterHeaders(answer: Answer): number {
  const summaries = JSON.parse(answer.body) as { version: string }[];
  return summaries.filter((s) => BigInt(s.version) > answer.ledgerVersion).length;
}

/** Answers reporting a ledger version below one reported by an answer that arrived before they were asked for. */
function backwards(answers: readonly Answer[]): number {
  let highest = -1n;
  let count = 0;
  for (const answer of answers) {
    if (answer.ledgerVersion < highest) count += 1;
    if (answer.ledgerVersion > highest) highest = answer.ledgerVersion;
  }
  return count;
}

function moved(answers: readonly Answer[]): bigint {
  const versions = answers.map((a) => a.ledgerVersion);
  return versions.reduce((a, b) => (a > b ? a : b)) - versions.reduce((a, b) => (a < b ? a : b));
}

let node: RunningNode | undefined;
let clients: Client[] = [];
afterEach(async () => {
  await closeClients(clients);
  clients = [];
  await node?.close();
  node = undefined;
});

describe("the load threshold", () => {
  it("lies above what an idle run reaches (33 connections) and below the load mode's self-check (48 clients)", () => {
    expect(CONNECTIONS_UNDER_LOAD).toBeGreaterThan(33);
    expect(LOAD_CONNECTIONS).toBeGreaterThan(CONNECTIONS_UNDER_LOAD);
  });
});

describe("torn-read", () => {
  it("under load, answers summaries newer than its headers; one at a time, never", { timeout: 60_000 }, async () => {
    node = await busyNode("torn-read");
    const path = `/accounts/${node.fixtures.transactionsAccount}/transaction_summaries`;

    clients = openClients(node, IDLE_CONNECTIONS);
    const idle = await readOneAtATime(clients, path);
    expect(idle.every((a) => a.status === 200)).toBe(true);
    expect(moved(idle), "blocks committed while the idle phase ran").toBeGreaterThan(0n);
    expect(idle.filter((a) => summariesAfterHeaders(a) > 0)).toEqual([]);
    await closeClients(clients);

    clients = openClients(node, LOAD_CONNECTIONS);
    const loaded = await readAtOnce(clients, path);
    expect(loaded.every((a) => a.status === 200)).toBe(true);
    expect(loaded.filter((a) => summariesAfterHeaders(a) > 0).length).toBeGreaterThan(0);
  });
});

describe("stale-replica-connections", () => {
  it("under load, answers on connections accepted late report an older ledger; one at a time on a few, never", {
    timeout: 60_000,
  }, async () => {
    node = await busyNode("stale-replica-connections");

    clients = openClients(node, IDLE_CONNECTIONS);
    const idle = await readOneAtATime(clients, "");
    expect(moved(idle), "blocks committed while the idle phase ran").toBeGreaterThan(0n);
    expect(backwards(idle)).toBe(0);
    await closeClients(clients);

    // Every connection open at once (each client's first request), then one request at a time round them.
    clients = openClients(node, LOAD_CONNECTIONS);
    await Promise.all(clients.map((client) => get(client, "")));
    const loaded = await readOneAtATime(clients, "");
    expect(backwards(loaded)).toBeGreaterThan(0);
  });
});

describe("cursor-shift-on-publish", () => {
  const MODULES_PAGE = 7;
  const MAX_PAGES = 200;

  /** The module names of a cursor walk of 0x1 pinned at `version`. */
  async function walk(base: string, version: string): Promise<string[]> {
    const names: string[] = [];
    let start: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = `limit=${MODULES_PAGE}&ledger_version=${version}${start === undefined ? "" : `&start=${start}`}`;
      const reply = await call(base, `/accounts/0x1/modules?${query}`);
      expect(reply.status, reply.text).toBe(200);
      names.push(...(reply.json() as { abi: { name: string } }[]).map((m) => m.abi.name));
      const cursor = reply.headers["x-node-cursor"];
      if (typeof cursor !== "string") return names;
      start = cursor;
    }
    throw new Error(`the walk took more than ${MAX_PAGES} pages`);
  }

  async function listing(base: string, version: string): Promise<string[]> {
    const reply = await call(base, `/accounts/0x1/modules?limit=9999&ledger_version=${version}`);
    expect(reply.status, reply.text).toBe(200);
    return (reply.json() as { abi: { name: string } }[]).map((m) => m.abi.name);
  }

  it("skips a module in a walk at a version before a module sorting before the cursor was published; not at the latest", {
    timeout: 60_000,
  }, async () => {
    node = await startNode({ faults: ["cursor-shift-on-publish"], clock: new ManualClock() });
    const published = node.fixtures.history.modulePublished;
    expect(published.address).toBe("0x1");
    const before = (BigInt(published.version) - 1n).toString();

    const atBefore = await listing(node.url, before);
    expect(atBefore).not.toContain(published.name);
    const walked = await walk(node.url, before);
    expect(walked.length).toBeLessThan(atBefore.length);
    expect(walked.every((name) => atBefore.includes(name))).toBe(true);

    // Nothing published since the latest version: the walk there yields its listing exactly.
    const latest = (await call(node.url, "")).headers["x-node-ledger-version"] as string;
    expect(await walk(node.url, latest)).toEqual(await listing(node.url, latest));
  });
});

describe("mempool-double-accept", () => {
  /** The sender's committed summaries with `sequenceNumber`, their versions ascending. */
  async function committedWith(base: string, sender: string, sequenceNumber: bigint): Promise<bigint[]> {
    const reply = await call(base, `/accounts/${sender}/transaction_summaries`);
    expect(reply.status, reply.text).toBe(200);
    return (reply.json() as { version: string; replay_protector: { sequence_number?: string } }[])
      .filter((s) => s.replay_protector.sequence_number === sequenceNumber.toString())
      .map((s) => BigInt(s.version));
  }

  async function commit(running: RunningNode): Promise<void> {
    (running.clock as ManualClock).advance(3_000);
    await call(running.url, "");
  }

  it("commits both of two submissions with one sequence number that race; refuses the second of two in turn", {
    timeout: 60_000,
  }, async () => {
    node = await startNode({ faults: ["mempool-double-accept"], clock: new ManualClock() });
    const running = node;
    const to = running.fixtures.accounts[3]?.address ?? "";

    // At once, each on a connection of its own.
    const racer = fixtureAccount(running, 0);
    const sequenceNumber = signedTransfer(running, racer, to, 1n).raw_txn.sequence_number;
    const transfers = [1n, 2n].map((amount) => signedTransfer(running, racer, to, amount, sequenceNumber));
    const raced = await Promise.all(transfers.map((signed) => postJson(running.url, "/transactions", transferJson(signed))));
    expect(raced.map((r) => r.status)).toEqual([202, 202]);

    // One after the other.
    const patient = fixtureAccount(running, 1);
    const patientSequenceNumber = signedTransfer(running, patient, to, 1n).raw_txn.sequence_number;
    const first = await postJson(
      running.url,
      "/transactions",
      transferJson(signedTransfer(running, patient, to, 1n, patientSequenceNumber)),
    );
    const second = await postJson(
      running.url,
      "/transactions",
      transferJson(signedTransfer(running, patient, to, 2n, patientSequenceNumber)),
    );
    expect(first.status, first.text).toBe(202);
    expect(second.status, second.text).toBe(400);

    await commit(running);
    const racedVersions = await committedWith(running.url, running.fixtures.accounts[0]?.address ?? "", sequenceNumber);
    expect(racedVersions).toHaveLength(2);
    expect((racedVersions[1] as bigint) - (racedVersions[0] as bigint)).toBe(1n);
    expect(await committedWith(running.url, running.fixtures.accounts[1]?.address ?? "", patientSequenceNumber)).toHaveLength(1);
  });
});
