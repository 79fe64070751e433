// Every failure becomes a §2.6 error object `{message, error_code, vm_error_code?}` with a status from
// the family's convention. Only an error nobody anticipated (a bug) is a 500 internal_error.

import { CodecError } from "../../codec/index.ts";
import { LedgerError, type ErrorCode } from "../ledger/api.ts";
import type { Profile } from "./profile.ts";

export interface ErrorBody {
  readonly message: string;
  readonly error_code: ErrorCode;
  /** null only under a profile that always writes it (Profile.vmErrorCodeAlways). */
  readonly vm_error_code?: number | null;
}

export interface ErrorReply {
  readonly status: number;
  readonly body: ErrorBody;
}

/** A malformed path or query value, or a request the framework cannot parse: 400 web_framework_error. */
export function badRequest(message: string): LedgerError {
  return new LedgerError(400, "web_framework_error", message);
}

/** The 404 for a path (or method on a path) the node does not serve. */
export function routeNotFound(method: string, url: string): ErrorReply {
  return {
    status: 404,
    body: { message: `No route for ${method} ${url}`, error_code: "web_framework_error" },
  };
}

/** A request the HTTP layer refuses before any route reads it (411, 415), as a web framework would. */
export class FrameworkRefusal extends Error {
  constructor(
    readonly statusCode: 411 | 415,
    message: string,
  ) {
    super(message);
    this.name = "FrameworkRefusal";
  }
}

interface FrameworkError {
  readonly statusCode: number;
  readonly message: string;
}

function isFrameworkError(error: unknown): error is FrameworkError {
  return error instanceof Error && typeof (error as Partial<FrameworkError>).statusCode === "number";
}

/** The error object as the profile writes it: with `vm_error_code: null` when it always carries one. */
export function profileErrorBody(body: ErrorBody, profile: Profile): ErrorBody {
  return profile.vmErrorCodeAlways && body.vm_error_code === undefined ? { ...body, vm_error_code: null } : body;
}

export function toErrorReply(error: unknown, profile: Profile): ErrorReply {
  if (error instanceof LedgerError) {
    const body: ErrorBody =
      error.vmErrorCode === undefined
        ? { message: error.message, error_code: error.code }
        : { message: error.message, error_code: error.code, vm_error_code: error.vmErrorCode };
    return { status: error.status, body };
  }
  if (error instanceof CodecError) {
    return { status: 400, body: { message: error.message, error_code: "invalid_input" } };
  }
  if (isFrameworkError(error) && error.statusCode >= 400 && error.statusCode < 500) {
    // Body over the limit keeps its 413; Aptos has no dedicated code, so it is a framework error like
    // every other request the framework refuses to parse (broken JSON, wrong content type, empty body).
    // A Content-Type the route does not take is 400 or 415 by profile; 411 comes only from a profile
    // that requires Content-Length.
    const status =
      error.statusCode === 413 || error.statusCode === 404 || error.statusCode === 411
        ? error.statusCode
        : error.statusCode === 415
          ? profile.unsupportedMediaTypeStatus
          : 400;
    return { status, body: { message: error.message, error_code: "web_framework_error" } };
  }
  return { status: 500, body: { message: "Internal error", error_code: "internal_error" } };
}
