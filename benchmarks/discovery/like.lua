-- PUT /api/v1/products/{id}/like, signed in: walks the (shopper, product) pairs of tokens.txt ×
-- like_product_ids.txt (64 × 5 000) so nearly every request adds a new like. `-- OFFSET` starts
-- further on: the run script gives the measured run a different offset from its warm-up.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local tokens, products, i
local per_thread = 50000  -- pairs each thread may walk before it reaches the next thread's

function init(args)
  tokens, products = read_lines("tokens.txt"), read_lines("like_product_ids.txt")
  for t = 1, #tokens do tokens[t] = auth_headers(tokens[t]) end
  i = (tonumber(args[1]) or 0) + (tid or 0) * per_thread
end

function request()
  local pair = i % (#products * #tokens)
  i = i + 1
  local product = products[(pair % #products) + 1]
  local headers = tokens[math.floor(pair / #products) + 1]
  return wrk.format("PUT", "/api/v1/products/" .. product .. "/like", headers)
end
