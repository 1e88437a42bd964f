-- W4 text search "shirt", 20 results: the real search endpoint (full text, prefix matching, ranked,
-- with facet counts), public.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

-- Built in init: wrk adds the Host header there (an HTTP/1.1 request without one is a 400 for some servers).
local req
function init(args) req = wrk.format("GET", "/api/v1/search/products?q=shirt&limit=20", { ["Accept"] = "application/json" }) end
function request() return req end
