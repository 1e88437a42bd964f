-- W1 feed: the 20 newest active products (store embedded in each), public.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

-- Built in init: wrk adds the Host header there (an HTTP/1.1 request without one is a 400 for some servers).
local req
function init(args) req = wrk.format("GET", "/api/v1/products?limit=20", { ["Accept"] = "application/json" }) end
function request() return req end
