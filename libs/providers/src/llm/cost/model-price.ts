/** What a model costs, in US dollars per one million tokens. */
export interface ModelPrice {
  /** USD per 1M input (prompt) tokens. */
  input: number;
  /** USD per 1M output (generated) tokens. */
  output: number;
}
