// Whether a request brings a body its operation does not take: the case where aptos-core answers 415
// Unsupported Media Type (poem-openapi/src/error.rs `ContentTypeError`), a status no endpoint of §4.2
// or §4.8 lists. The requirements about that refusal are apart from the rest of their endpoint's, so
// that a baseline listing the one deviation masks nothing else.

import { mediaType, type HttpRequest } from "./http-client.ts";
import type { OperationContract } from "./openapi.ts";

/**
 * For an operation that takes a request body (§4.2, §4.8): the request has no body, or a Content-Type
 * that is none of the media types the operation's request body declares.
 */
export function bringsUnsupportedBody(op: Pick<OperationContract, "requestMediaTypes">, request: HttpRequest): boolean {
  if (op.requestMediaTypes.length === 0) return false;
  if (request.body === undefined || request.body.length === 0) return true;
  const header = Object.entries(request.headers).find(([name]) => name.toLowerCase() === "content-type")?.[1];
  const type = mediaType(header);
  return type === undefined || !op.requestMediaTypes.includes(type);
}
