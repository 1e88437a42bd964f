-- W0, not a workload of the comparison: GET /health (no database, no JSON body), the most one
-- request costs in the HTTP stack; it bounds what any other workload can reach.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

-- Built in init: wrk adds the Host header there (an HTTP/1.1 request without one is a 400 for some servers).
local req
function init(args) req = wrk.format("GET", "/health") end
function request() return req end
