// The one rule an error body is judged by, wherever it is judged (2.6/error-object on every error
// response, 4/errors-json-when-bcs-asked, the validation proxy): JSON, and the document's Error schema,
// so that one body cannot get two verdicts (the §7.2 value of error_code is 7.2/error-code-known's to
// judge, on every error too: ApiContract.errorObjectProblems). The schema is open ("Objects" in schemas/openapi.yaml): a
// member it does not declare is no problem here.

import type { HttpResponse } from "./http-client.ts";
import type { ApiContract } from "./openapi.ts";

/** What a rule found wrong: the expectation and what came back. */
export interface ErrorObjectProblem {
  readonly expected: string;
  readonly found: string;
}

export const ERROR_OBJECT_EXPECTED =
  "the §2.6 error object as JSON: Content-Type application/json and a message (string), an error code (string; by the family's names {message, error_code}, else found by type) and vm_error_code?: unsigned integer or null";

/** Undefined when `res` carries the §2.6 error object, else what is wrong with it. */
export function errorObjectProblem(contract: Pick<ApiContract, "errorObjectProblems">, res: HttpResponse): ErrorObjectProblem | undefined {
  const expected = ERROR_OBJECT_EXPECTED;
  if (res.contentType !== "application/json") return { expected, found: `Content-Type ${res.headers["content-type"] ?? "(none)"}` };
  if (res.json === undefined) return { expected, found: "a body that is not JSON" };
  const problems = contract.errorObjectProblems(res.json);
  return problems.length === 0 ? undefined : { expected, found: problems.slice(0, 10).join("; ") };
}
