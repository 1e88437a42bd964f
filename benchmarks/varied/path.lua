-- One GET of $BENCH_PATH again and again (W0api: Atelier's cheapest API operation, signed in when
-- $BENCH_SIGNED_IN is set, as the first shopper of tokens.txt; W4f: a search).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/common.lua")

local req
function init(args)
  local headers = { ["Accept"] = "application/json" }
  if os.getenv("BENCH_SIGNED_IN") == "1" then headers["Authorization"] = "Bearer " .. read_lines("tokens.txt")[1] end
  req = wrk.format("GET", os.getenv("BENCH_PATH"), headers)
end
function request() return req end
