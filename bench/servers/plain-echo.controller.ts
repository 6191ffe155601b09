import { Body, Controller, HttpCode, Post } from '@nestjs/common';

/**
 * `POST /echo` written the plain Nest way. The same class serves the bare Nest baseline and the
 * "plain Nest controller inside a toolkit App" row, so only the host around it differs.
 */
@Controller()
export class PlainEchoController {
  @Post('/echo')
  @HttpCode(200)
  echo(@Body('message') message: string): { echo: string } {
    return { echo: message };
  }
}
