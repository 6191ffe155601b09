/**
 * A body error shaped as body-parser's (`http-errors`): the error answer code maps it by `type`,
 * so a body read by `readPlainJson` is answered exactly as one body-parser read.
 */
export class BodyError extends Error {
  readonly expose = true;

  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
  ) {
    super(message);
  }

  get statusCode(): number {
    return this.status;
  }
}
