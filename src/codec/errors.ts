/** Every rejection of input by the codec. Callers map it to a 400; it never means a bug in the caller. */
export class CodecError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CodecError";
  }
}

/** Runs `fn`, turning anything it throws into a CodecError prefixed with `what`. */
export function asCodecError<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof CodecError) throw new CodecError(`${what}: ${error.message}`, { cause: error });
    const detail = error instanceof Error ? error.message : String(error);
    throw new CodecError(`${what}: ${detail}`, { cause: error });
  }
}
