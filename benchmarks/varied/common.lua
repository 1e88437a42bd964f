-- Shared by the varied workloads (W1v–W6) of benchmarks/run, for Atelier (atelier.lua) and PocketBase
-- (pocketbase.lua): every request differs from the last, like real traffic. Built on discovery/common.lua
-- (lists from $BENCH_LISTS, the RESULT line).
--
-- Follow-up requests (the next page of a feed, an unlike after a like) are queued per thread when the answer
-- they depend on arrives. wrk does not say which request an answer belongs to, so Atelier's requests carry
-- their meaning in X-Request-Id, which Atelier sends back; PocketBase's answers carry the record id.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "../discovery/common.lua")

function columns(name)
  local out = {}
  for i, line in ipairs(read_lines(name)) do
    local row = {}
    for field in line:gmatch("[^\t]+") do row[#row + 1] = field end
    out[i] = row
  end
  return out
end

function urlencode(value)
  return (tostring(value):gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

-- The like workloads walk (shopper, product) pairs by number so that the run never asks for one pair twice
-- and the post-run check can tell which pair a tag names: pair k is shopper k % U with product
-- (floor(k / U) * 4099 + 13 * (k % U)) % P of v_products.txt (4099 is prime, so a shopper's products differ).
-- `-- START` (wrk's script argument) is where this invocation begins; each thread walks its own million.
function pair(k, shoppers, products)
  local u = k % shoppers
  return u + 1, ((math.floor(k / shoppers) * 4099 + 13 * u) % products) + 1
end

-- Requests that wait for their turn (the next page of a feed, an unlike), served before new ones. Explicit ends:
-- Lua's # is unreliable once the front of a table has been taken.
local queue, first, last = {}, 1, 0
function push(r)
  last = last + 1
  queue[last] = r
end

-- The next request: a waiting one, else a new one of the kind `choose()` names, made by `make[kind]()`.
function next_request(make, choose)
  if last >= first then
    local r = queue[first]
    queue[first] = nil
    first = first + 1
    return r
  end
  return make[choose()]()
end

-- weights: { {name, weight}, ... } -> a function choosing a name in those proportions.
function chooser(weights)
  local total = 0
  for _, w in ipairs(weights) do total = total + w[2] end
  return function()
    local r = math.random() * total
    for _, w in ipairs(weights) do
      r = r - w[2]
      if r <= 0 then return w[1] end
    end
    return weights[#weights][1]
  end
end

local threads = {}
local base_setup = setup
function setup(thread)
  base_setup(thread)
  threads[#threads + 1] = thread
end

-- Writes the acknowledged and unanswered like tags of every thread to $BENCH_ACKS (one per line,
-- "+tag" acknowledged, "?tag" sent without an answer) for the post-run check, then the RESULT line.
local base_done = done
function done(summary, latency, requests)
  local path = os.getenv("BENCH_ACKS")
  if path then
    local file = assert(io.open(path, "a"))
    for _, thread in ipairs(threads) do
      local acked, sent = thread:get("acked"), thread:get("sent")
      for tag, _ in pairs(sent or {}) do
        file:write(((acked or {})[tag] and "+" or "?") .. tag .. "\n")
      end
    end
    file:close()
  end
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("refused") or {}) do
      io.write(string.format("REFUSED %d x%d %s\n", status, count, ((thread:get("samples") or {})[status] or ""):gsub("%s+", " ")))
    end
  end
  base_done(summary, latency, requests)
end
