-- W5 write: PATCH {"likes+":1} on products of pb_like_product_ids.txt as the shoppers of pb_tokens.txt,
-- in a scattered order that differs per thread and per `-- SEED`.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "pb.lua")

local products, headers
local body = '{"likes+":1}'

function init(args)
  products, headers = read_lines("pb_like_product_ids.txt"), {}
  for i, token in ipairs(read_lines("pb_tokens.txt")) do
    headers[i] = { ["Authorization"] = token, ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
  end
  math.randomseed((tonumber(args[1]) or 0) * 1000 + (tid or 0) + 1)
end

function request()
  local product = products[math.random(#products)]
  return wrk.format("PATCH", records .. "/" .. product, headers[math.random(#headers)], body)
end
