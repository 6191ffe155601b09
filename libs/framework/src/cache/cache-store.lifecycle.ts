import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CacheStore } from '../../../providers/src/cache/index.js';

/** Closes the cache backend's connections when the application shuts down. */
@Injectable()
export class CacheStoreLifecycle implements OnModuleDestroy {
  constructor(@Inject(CacheStore) private readonly store: CacheStore) {}

  async onModuleDestroy(): Promise<void> {
    await this.store.close();
  }
}
