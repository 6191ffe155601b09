import {
  Body,
  Controller,
  Get,
  HttpException,
  HttpStatus,
  Post,
  UsePipes,
  ValidationPipe,
} from '@nestjs/common';
import { IsInt, IsString, Min } from 'class-validator';

/** A body checked by class-validator through Nest's ValidationPipe. */
export class ProbeBody {
  @IsString()
  name: string;

  @IsInt()
  @Min(1)
  count: number;
}

/** The host's own error paths, answered by Nest alone: toolkit must leave them as they are. */
@Controller('probe')
export class ProbeController {
  @Post('validate')
  @UsePipes(new ValidationPipe())
  validate(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Get('http-exception')
  refuse(): never {
    throw new HttpException('Probe refused', HttpStatus.FORBIDDEN);
  }

  @Get('crash')
  crash(): never {
    throw new Error('probe crashed');
  }
}
