/**
 * The ledger's Lua scripts, each one atomic step on the Redis keys of one API key (one slot of a
 * cluster), registered under their names by ledger.ts (which builds their KEYS and ARGV).
 */

/**
 * How long Redis remembers a batch or refund id: a batch whose answer was lost is voided if Redis
 * is back within this time (after it, the debits stay: never served, at worst charged). Ids take
 * Redis memory in proportion to the batch rate (about 100 bytes each).
 */
export const ID_TTL_MS = 20_000;

// KEYS: day hash, second counter, hour hash, this second's batch ids.
// ARGV: daily limit, per-second limit, minute, batch id, then cost and method of each debit.
// Returns one outcome per debit: 0 charged, 1 over the daily limit, 2 over the per-second limit.
// What the batch charged is kept under its id (per method, as JSON) for a void.
const DEBIT = `
local daily = tonumber(ARGV[1])
local perSecond = tonumber(ARGV[2])
local used = tonumber(redis.call('HGET', KEYS[1], '*') or '0')
local second = tonumber(redis.call('GET', KEYS[2]) or '0')
local outcomes = {}
local methods = {}
local total = 0
for i = 5, #ARGV, 2 do
  local cost = tonumber(ARGV[i])
  if used + cost > daily then
    outcomes[#outcomes + 1] = 1
  elseif second + cost > perSecond then
    outcomes[#outcomes + 1] = 2
  else
    used = used + cost
    second = second + cost
    total = total + cost
    methods[ARGV[i + 1]] = (methods[ARGV[i + 1]] or 0) + cost
    outcomes[#outcomes + 1] = 0
  end
end
if total > 0 then
  redis.call('INCRBY', KEYS[2], total)
  redis.call('PEXPIRE', KEYS[2], 2000)
  redis.call('HINCRBY', KEYS[1], '*', total)
  for method, credits in pairs(methods) do redis.call('HINCRBY', KEYS[1], method, credits) end
  redis.call('EXPIRE', KEYS[1], 172800)
  redis.call('HINCRBY', KEYS[3], ARGV[3], total)
  redis.call('EXPIRE', KEYS[3], 7200)
  redis.call('HSET', KEYS[4], ARGV[4], cjson.encode(methods))
  redis.call('PEXPIRE', KEYS[4], ${ID_TTL_MS})
end
return outcomes
`;

// Gives back what a batch whose answer was lost charged, if it was applied at all, once.
// KEYS: day hash, hour hash, the batch ids' hash. ARGV: batch id, minute.
const VOID = `
local charged = redis.call('HGET', KEYS[3], ARGV[1])
if not charged then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
local total = 0
for method, credits in pairs(cjson.decode(charged)) do
  redis.call('HINCRBY', KEYS[1], method, -credits)
  total = total + credits
end
redis.call('HINCRBY', KEYS[1], '*', -total)
redis.call('HINCRBY', KEYS[2], ARGV[2], -total)
return 1
`;

// Gives credits back once per refund id. KEYS: day hash, hour hash, the refund ids' hash.
// ARGV: cost, method, minute, refund id.
const REFUND = `
if redis.call('HSETNX', KEYS[3], ARGV[4], 1) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[3], ${ID_TTL_MS})
local cost = tonumber(ARGV[1])
redis.call('HINCRBY', KEYS[1], '*', -cost)
redis.call('HINCRBY', KEYS[1], ARGV[2], -cost)
redis.call('HINCRBY', KEYS[2], ARGV[3], -cost)
return 1
`;

// Settles this instance's leases of a day (once per sequence number), then leases (want > 0).
// KEYS: day hash, this second's window, then the hour hashes of the settlement's minutes.
// ARGV: instance, seq (0: nothing to settle), method count, then method and credits pairs,
// minute count, then (index of the hour hash in KEYS, minute, credits) triples, then want, the
// least worth leasing, daily limit, per-second limit, day share, window floor, this second.
// Returns: settled (0 nothing, 1 applied, 2 seen before), granted, day left, window left.
const LEASE = `
local instance = ARGV[1]
local reservedField, secondField = '@r:' .. instance, '@t:' .. instance
local seqField = '@s:' .. instance
local seq = tonumber(ARGV[2])
local settled = 0
if seq > 0 then
  if seq > tonumber(redis.call('HGET', KEYS[1], seqField) or '0') then settled = 1 else settled = 2 end
end
local i = 3
local net = 0
for _ = 1, tonumber(ARGV[i]) do
  if settled == 1 then
    redis.call('HINCRBY', KEYS[1], ARGV[i + 1], ARGV[i + 2])
    net = net + tonumber(ARGV[i + 2])
  end
  i = i + 2
end
i = i + 1
for _ = 1, tonumber(ARGV[i]) do
  if settled == 1 then
    local hour = KEYS[tonumber(ARGV[i + 1])]
    redis.call('HINCRBY', hour, ARGV[i + 2], ARGV[i + 3])
    redis.call('EXPIRE', hour, 7200)
  end
  i = i + 3
end
i = i + 1
if settled == 1 then
  redis.call('HSET', KEYS[1], seqField, seq)
  local reserved = tonumber(redis.call('HGET', KEYS[1], reservedField) or '0')
  redis.call('HINCRBY', KEYS[1], '*', net - reserved)
  redis.call('HDEL', KEYS[1], reservedField, secondField)
  redis.call('EXPIRE', KEYS[1], 172800)
end
local want, least = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
local dayLeft = tonumber(ARGV[i + 2]) - tonumber(redis.call('HGET', KEYS[1], '*') or '0')
local windowLeft = tonumber(ARGV[i + 3]) - tonumber(redis.call('GET', KEYS[2]) or '0')
local granted = 0
if want > 0 then
  local lease = math.min(want, math.floor(dayLeft / tonumber(ARGV[i + 4])), windowLeft - tonumber(ARGV[i + 5]))
  if lease >= least then
    granted = lease
    local second = ARGV[i + 6]
    redis.call('HINCRBY', KEYS[1], '*', granted)
    redis.call('HINCRBY', KEYS[1], reservedField, granted)
    redis.call('HSET', KEYS[1], secondField, second)
    redis.call('EXPIRE', KEYS[1], 172800)
    redis.call('INCRBY', KEYS[2], granted)
    redis.call('PEXPIRE', KEYS[2], 2000)
  end
end
return {settled, granted, dayLeft - granted, windowLeft - granted}
`;

/** The commands the scripts add to a connection. */
export interface LedgerScripts {
  gwDebit(...args: (string | number)[]): Promise<number[]>;
  gwLease(...args: (string | number)[]): Promise<number[]>;
  gwVoid(...args: (string | number)[]): Promise<number>;
  gwRefund(...args: (string | number)[]): Promise<number>;
}

/** The scripts by command name, as ioredis defineCommand takes them. */
export const SCRIPTS: Record<keyof LedgerScripts, { numberOfKeys?: number; lua: string }> = {
  gwDebit: { numberOfKeys: 4, lua: DEBIT },
  gwVoid: { numberOfKeys: 3, lua: VOID },
  gwRefund: { numberOfKeys: 3, lua: REFUND },
  gwLease: { lua: LEASE }, // the number of keys comes first in each call
};
