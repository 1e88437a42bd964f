-- W2 browse: active products of one category (w2_category.txt), price 200.00–800.00, newest
-- first, 20 per page, store embedded, public.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

local req
function init(args)
  local category = read_lines("w2_category.txt")[1]
  req = wrk.format("GET", "/api/v1/products?categoryId=" .. category .. "&priceMin=20000&priceMax=80000&limit=20",
    { ["Accept"] = "application/json" })
end
function request() return req end
