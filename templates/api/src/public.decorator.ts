import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'api:public';

/** Marks a route as open to everyone: no API key needed, no rate limit. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
