-- Shared by the PocketBase wrk scripts: discovery/common.lua (lists from $BENCH_LISTS, rotate(), the
-- RESULT line of done()) plus query-string encoding and the records path.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "../discovery/common.lua")

records = "/api/collections/products/records"
json_accept = { ["Accept"] = "application/json" }

local function encode(value)
  return (tostring(value):gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

-- query({ {"filter", "(active=true)"}, {"sort", "-created"} }) -> "filter=%28active%3Dtrue%29&sort=-created"
function query(pairs_)
  local parts = {}
  for _, kv in ipairs(pairs_) do parts[#parts + 1] = kv[1] .. "=" .. encode(kv[2]) end
  return table.concat(parts, "&")
end

-- For the workloads that repeat one GET: built in init(), where wrk.format knows the Host header.
function fixed_get(path)
  local built
  function init(args) built = wrk.format("GET", path(), json_accept) end
  function request() return built end
end
