-- W1 feed: the 20 newest active products (store embedded in each), public.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

local req = wrk.format("GET", "/api/v1/products?limit=20", { ["Accept"] = "application/json" })
function request() return req end
