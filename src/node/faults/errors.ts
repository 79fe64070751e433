// Faults in the §2.6 error object and the §7.2 codes: a member under another name, codes that are not
// §7.2's, errors that are not JSON, and vm_error_code in the wrong type. Each is an error-formatting
// layer (a middleware every error passes through) written against another convention.

import type { FastifyReply } from "fastify";
import { errorBodyOf, type Fault } from "./fault.ts";

/** An onSend hook that rewrites the JSON error object of every error reply. */
function rewriteErrors(rewrite: (body: Record<string, unknown>, reply: FastifyReply) => string | undefined) {
  return async (_request: unknown, reply: FastifyReply, payload: unknown) => {
    const body = errorBodyOf(reply, payload);
    return body === undefined ? payload : (rewrite(body, reply) ?? payload);
  };
}

const errorCodesUppercase: Fault = {
  name: "error-codes-uppercase",
  area: "errors",
  description: "writes error codes as upper-case enum names (VERSION_PRUNED), which are not the §7.2 values",
  breaks: ["7.2/error-code-known"],
  http: (app) => {
    app.addHook(
      "onSend",
      rewriteErrors((body) =>
        typeof body.error_code === "string" ? JSON.stringify({ ...body, error_code: body.error_code.toUpperCase() }) : undefined,
      ),
    );
  },
};

const REASONS: Readonly<Record<number, string>> = { 400: "Bad Request", 404: "Not Found", 413: "Payload Too Large" };

const frameworkErrorsPlainText: Fault = {
  name: "framework-errors-plain-text",
  area: "errors",
  description:
    "answers requests the web framework refuses (malformed path, query or body) with a text/plain message, not the JSON error object",
  breaks: ["2.6/error-object"],
  http: (app) => {
    app.addHook(
      "onSend",
      rewriteErrors((body, reply) => {
        if (body.error_code !== "web_framework_error") return undefined;
        reply.type("text/plain; charset=utf-8");
        return `${reply.statusCode} ${REASONS[reply.statusCode] ?? "Error"}: ${String(body.message)}`;
      }),
    );
  },
};

export const ERROR_FAULTS: readonly Fault[] = [errorCodesUppercase, frameworkErrorsPlainText];
