/**
 * Injection token of the resolved {@link ToolkitConfig}, including the sections toolkit does
 * not know (`config.extra`).
 *
 * @example
 * constructor(@Inject(TOOLKIT_CONFIG) private readonly config: ToolkitConfig) {}
 */
export const TOOLKIT_CONFIG = Symbol.for('toolkit:config');

/**
 * Injection token of a configuration its host resolved already (`App` loads it before Nest
 * starts, to choose the HTTP platform): `ToolkitModule` provides it as `TOOLKIT_CONFIG` instead
 * of loading `toolkit.yaml` and `.env` a second time. Internal: not exported from the barrel.
 */
export const PRELOADED_CONFIG = Symbol.for('toolkit:preloaded-config');

/**
 * Injection token of the application's {@link AppInfo} (name and version).
 *
 * @example
 * constructor(@Inject(APP_INFO) private readonly info: AppInfo) {}
 */
export const APP_INFO = Symbol.for('toolkit:app-info');

/** Metadata keys; namespaced so they never clash with Nest's or a user's own. */
export const ROUTE_METADATA = 'toolkit:route';
export const STREAM_METADATA = 'toolkit:stream';
export const CACHE_METADATA = 'toolkit:cache';
export const RATE_LIMIT_METADATA = 'toolkit:rate-limit';
export const ARGS_METADATA = 'toolkit:args';
/** Set on a handler whose parameters include a toolkit binding (`@Arg`, the bound-params object). */
export const BINDS_METADATA = 'toolkit:binds';

/** Request/response properties toolkit keeps per request (symbols: invisible to JSON and users). */
export const BINDING = Symbol.for('toolkit:binding');
export const REPLY_ROUTE = Symbol.for('toolkit:reply-route');
