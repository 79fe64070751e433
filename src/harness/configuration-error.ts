// The base of every error that means the run was configured wrongly (flags, fixtures file, catalog,
// baseline, a reference node that cannot start): the command prints its message and exits 2.

export class ConfigurationError extends Error {
  override readonly name: string = "ConfigurationError";
}
