-- PocketBase's side of the varied workloads: the same shoppers, stores, categories, price windows, products
-- and words as atelier.lua (the lists carry PocketBase's form of each request).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "common.lua")

local records = "/api/collections/products/records"
local tokens, feeds, browse, products, search, choose
local liked, liked_first, liked_last = {}, 1, 0
local start = 0

function init(args)
  start = (tonumber(args[1]) or 0) + (tid or 0) * 1000000
  math.randomseed(start + 1)
  tokens = read_lines("pb_tokens.txt")
  feeds, browse, products, search = columns("v_feed.txt"), columns("v_browse.txt"), columns("v_products.txt"),
    columns("v_search.txt")
  choose = chooser(mix)
end

local function get(path, token)
  local headers = { ["Accept"] = "application/json" }
  if token then headers["Authorization"] = token end
  return wrk.format("GET", path, headers)
end

local function patch(id, token, body)
  return wrk.format("PATCH", records .. "/" .. id,
    { ["Authorization"] = token, ["Content-Type"] = "application/json", ["Accept"] = "application/json" }, body)
end

local make = {
  -- PocketBase pages by number: the three pages of one shopper's feed are asked one after the other.
  feed = function()
    local u = math.random(math.min(#feeds, #tokens))
    local query = feeds[u][2 + math.random(2)]
    for page = 2, 3 do push(get(records .. "?" .. query .. "&page=" .. page, tokens[u])) end
    return get(records .. "?" .. query .. "&page=1", tokens[u])
  end,
  browse = function() return get(records .. "?" .. browse[math.random(#browse)][2]) end,
  product = function() return get(records .. "/" .. products[math.random(#products)][2] .. "?expand=store%2Ccategory") end,
  search = function() return get(records .. "?" .. search[math.random(#search)][2]) end,
  -- A third of the writes take back this thread's oldest like not yet taken back (PocketBase's answers do
  -- not say which request they answer, so the unlike is not tied to the like's acknowledgement as on Atelier;
  -- the oldest was sent long enough ago to be done).
  like = function()
    if liked_last - liked_first >= 64 and math.random() < 1 / 3 then
      local id = liked[liked_first]
      liked[liked_first] = nil
      liked_first = liked_first + 1
      return patch(id, tokens[math.random(#tokens)], '{"likes-":1}')
    end
    local k = start
    start = start + 1
    local u, p = pair(k, #tokens, #products)
    liked_last = liked_last + 1
    liked[liked_last] = products[p][2]
    return patch(products[p][2], tokens[u], '{"likes+":1}')
  end,
}

function request()
  return next_request(make, choose)
end

-- Refusals are counted by status, with the first answer of each, for the run's notes (common.lua's done).
refused, samples = {}, {}
function response(status, headers, body)
  if status >= 300 then
    refused[status] = (refused[status] or 0) + 1
    samples[status] = samples[status] or body:sub(1, 160)
  end
end
