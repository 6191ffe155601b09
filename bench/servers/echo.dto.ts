import { IsString } from 'class-validator';

/** The body of `POST /echo`, checked by Nest's `ValidationPipe` with class-validator. */
export class EchoDto {
  @IsString()
  message!: string;
}
