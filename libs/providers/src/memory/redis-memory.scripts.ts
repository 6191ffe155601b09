import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Lua run by {@link RedisMemoryStore}. Each script is one atomic step on the server, so the index
 * of conversations (a sorted set `<prefix>:memory-lru`: user id → last use in microseconds of the
 * Redis clock) and the histories never disagree, whatever number of processes share them.
 * The append script deletes evicted histories by name (keys not passed in KEYS): fine on one
 * Redis server (what `RedisConnection` connects to), not on Redis Cluster.
 */

// Last-use score: the server's clock in microseconds, kept strictly above the index's highest
// score, so the conversation just used is always the unique newest (never evicted by its own
// write, even with a clock that steps back). `%.0f`: Lua's tostring would print 1.7e+15.
const NOW = `
local function now_us(index)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local top = redis.call('ZRANGE', index, -1, -1, 'WITHSCORES')
  if top[2] and tonumber(top[2]) >= now then now = tonumber(top[2]) + 1 end
  return now
end
local function score(n) return string.format('%.0f', n) end
`;

/**
 * KEYS: history, index. ARGV: user id, max history, TTL ms (0: none), max conversations, key
 * base (`<prefix>:memory:`), most evictions per call, then the JSON entries. Appends and trims
 * the history, refreshes its TTL, drops index entries whose last use is older than the TTL
 * (their keys have expired), records the use, then deletes the least recently used
 * conversations beyond the bound. Returns how many it deleted.
 */
export const APPEND_SCRIPT = `${NOW}
local key, index = KEYS[1], KEYS[2]
local user, max_history, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local max_conversations, base, cap = tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6])
-- Redis does not undo a script's writes when a later command fails: every command this script
-- may run is checked first (ACL since Redis 7, key types), so a refusal writes nothing.
if redis.acl_check_cmd then
  for _, command in ipairs({
    {'RPUSH', key, 'x'}, {'LTRIM', key, '0', '0'}, {'PEXPIRE', key, '1'}, {'DEL', key},
    {'ZADD', index, '0', 'x'}, {'ZREMRANGEBYSCORE', index, '0', '0'}, {'ZPOPMIN', index},
    {'PEXPIRE', index, '1'},
  }) do
    if not redis.acl_check_cmd(unpack(command)) then
      return redis.error_reply('NOPERM this user cannot run ' .. command[1] .. ' on ' .. command[2])
    end
  end
end
for _, pair in ipairs({{key, 'list'}, {index, 'zset'}}) do
  local kind = redis.call('TYPE', pair[1]).ok
  if kind ~= 'none' and kind ~= pair[2] then
    return redis.error_reply('WRONGTYPE ' .. pair[1] .. ' holds a ' .. kind .. ', not a ' .. pair[2])
  end
end
for i = 7, #ARGV, 1000 do
  redis.call('RPUSH', key, unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('LTRIM', key, -max_history, -1)
local now = now_us(index)
if ttl > 0 then
  redis.call('PEXPIRE', key, ttl)
  redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. score(now - ttl * 1000))
end
redis.call('ZADD', index, score(now), user)
local excess = redis.call('ZCARD', index) - max_conversations
local evicted = 0
if excess > 0 then
  local old = redis.call('ZPOPMIN', index, math.min(excess, cap))
  for i = 1, #old, 2 do
    redis.call('DEL', base .. old[i])
    evicted = evicted + 1
  end
end
if ttl > 0 then redis.call('PEXPIRE', index, ttl) end
return evicted
`;

/**
 * KEYS: history, index. ARGV: user id, count. The newest `count` entries; a read counts as a use
 * of a conversation the index holds (never adds one, so a read cannot pass the bound), and an
 * index entry whose history is gone is dropped.
 */
export const LIST_SCRIPT = `${NOW}
local entries = redis.call('LRANGE', KEYS[1], -tonumber(ARGV[2]), -1)
if #entries > 0 then
  redis.call('ZADD', KEYS[2], 'XX', score(now_us(KEYS[2])), ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
end
return entries
`;

/** A Lua script run by its SHA1 (EVALSHA), sent whole only when the server lacks it (NOSCRIPT). */
export class RedisScript {
  private readonly sha: string;

  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  /** Runs the script with `keys` and `args` on `client`. */
  async run(client: Redis, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as { message?: unknown }).message).startsWith('NOSCRIPT')) throw error;
      return client.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
