import { Injectable } from '@nestjs/common';
import { Tool } from 'toolkit';

/** What `current_time` answers. */
export interface CurrentTime {
  /** The instant, in UTC (ISO 8601). */
  iso: string;
  /** The IANA time zone the local time is given in. */
  timezone: string;
  /** Date and time in that zone, written out. */
  local: string;
}

/** The current date and time: models do not know what day it is. */
@Injectable()
export class ClockTools {
  /** Where "now" comes from; tests replace it. */
  now: () => Date = () => new Date();

  @Tool({
    name: 'current_time',
    description:
      'The current date and time, in UTC and in a time zone (IANA name such as "Europe/Paris"; default UTC).',
    parameters: {
      type: 'object',
      properties: { timezone: { type: 'string', maxLength: 64 } },
      additionalProperties: false,
    },
  })
  currentTime({ timezone = 'UTC' }: { timezone?: string }): CurrentTime {
    const now = this.now();
    let local: string;
    try {
      local = new Intl.DateTimeFormat('en-GB', {
        timeZone: timezone,
        dateStyle: 'full',
        timeStyle: 'long',
      }).format(now);
    } catch {
      throw new Error(`unknown time zone "${timezone}"; use an IANA name such as "Europe/Paris"`);
    }
    return { iso: now.toISOString(), timezone, local };
  }
}
