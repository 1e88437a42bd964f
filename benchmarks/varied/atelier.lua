-- Atelier's varied workloads; a workload file sets `mix` (see w1v.lua … w6.lua) and loads this.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")

local tokens, feeds, browse, products, search, choose
sent, acked = {}, {}
local start = 0

function init(args)
  start = (tonumber(args[1]) or 0) + (tid or 0) * 1000000
  math.randomseed(start + 1)
  tokens = read_lines("tokens.txt")
  feeds, browse, products, search = columns("v_feed.txt"), columns("v_browse.txt"), columns("v_products.txt"),
    columns("v_search.txt")
  choose = chooser(mix)
end

-- BENCH_GZIP=1 asks for gzip-compressed answers, as phones do (docs/benchmarks.md: with and without).
local gzip = os.getenv("BENCH_GZIP") == "1"

local function get(path, token, tag)
  local headers = { ["Accept"] = "application/json" }
  if gzip then headers["Accept-Encoding"] = "gzip" end
  if token then headers["Authorization"] = "Bearer " .. token end
  if tag then headers["X-Request-Id"] = tag end
  return wrk.format("GET", path, headers)
end

local function like(method, u, p, tag)
  sent[tag] = true
  return wrk.format(method, "/api/v1/products/" .. products[p][1] .. "/like",
    { ["Authorization"] = "Bearer " .. tokens[u], ["Accept"] = "application/json", ["X-Request-Id"] = tag })
end

local make = {
  feed = function()
    local u = math.random(#feeds)
    local kind = math.random(2)
    return get(feeds[u][kind], tokens[u], string.format("bF%d.%d.1", u, kind))
  end,
  browse = function() return get(browse[math.random(#browse)][1]) end,
  product = function() return get("/api/v1/products/" .. products[math.random(#products)][1]) end,
  search = function() return get(search[math.random(#search)][1]) end,
  like = function()
    local k = start
    start = start + 1
    local u, p = pair(k, #tokens, #products)
    return like("PUT", u, p, "bL" .. k)
  end,
}

function request()
  return next_request(make, choose)
end

function response(status, headers, body)
  local tag = headers["X-Request-Id"] or headers["x-request-id"]
  if not tag or status >= 300 then return end
  local kind = tag:sub(1, 2)
  if kind == "bL" then
    acked[tag] = true
    -- Half of the likes are taken back, by the same shopper, once the like is acknowledged.
    if math.random() < 0.5 then
      local k = tonumber(tag:sub(3))
      local u, p = pair(k, #tokens, #products)
      push(like("DELETE", u, p, "bU" .. k))
    end
  elseif kind == "bU" then
    acked[tag] = true
  elseif kind == "bF" then
    local u, feed, depth = tag:match("^bF(%d+)%.(%d)%.(%d)$")
    u, feed, depth = tonumber(u), tonumber(feed), tonumber(depth)
    local cursor = body:match('"nextCursor"%s*:%s*"([^"]+)"')
    if cursor and depth < 3 then
      local path = feeds[u][feed]
      path = path .. (path:find("?", 1, true) and "&" or "?") .. "cursor=" .. urlencode(cursor)
      push(get(path, tokens[u], string.format("bF%d.%d.%d", u, feed, depth + 1)))
    end
  end
end
