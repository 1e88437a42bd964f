-- W0, not a workload of the comparison: GET /api/health, PocketBase's HTTP stack alone.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

local req = wrk.format("GET", "/api/health")
function request() return req end
