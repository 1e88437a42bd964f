-- W0, not a workload of the comparison: GET /health (no database, no JSON body), the most one
-- request costs in the HTTP stack; it bounds what any other workload can reach.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

local req = wrk.format("GET", "/health")
function request() return req end
