-- W4 text search "shirt", 20 results: the real search endpoint (full text, prefix matching, ranked,
-- with facet counts), public.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

local req = wrk.format("GET", "/api/v1/search/products?q=shirt&limit=20", { ["Accept"] = "application/json" })
function request() return req end
