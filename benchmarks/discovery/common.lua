-- Shared by the discovery wrk scripts: list files, per-thread ids, and one machine-readable
-- result line. Lists and tokens are read from $BENCH_LISTS (written by generate.py and run).
local lists = os.getenv("BENCH_LISTS") or "."

function read_lines(name)
  local path = lists .. "/" .. name
  local file = io.open(path, "r")
  if not file then error("cannot read " .. path .. " (set BENCH_LISTS)") end
  local out = {}
  for line in file:lines() do
    if line ~= "" then out[#out + 1] = line end
  end
  file:close()
  if #out == 0 then error(path .. " is empty") end
  return out
end

-- Each thread gets an id (0, 1, …) so threads start at different places in the rotation.
local next_thread = 0
function setup(thread)
  thread:set("tid", next_thread)
  next_thread = next_thread + 1
end

function auth_headers(token)
  return { ["Authorization"] = "Bearer " .. token, ["Accept"] = "application/json" }
end

-- Prebuilt requests, taken in turn from a per-thread offset.
function rotate(requests)
  local i = (tid or 0) * 7919
  return function()
    i = i + 1
    return requests[(i % #requests) + 1]
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f " ..
    "non2xx=%d connect=%d read=%d write=%d timeout=%d bytes=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.status, e.connect, e.read, e.write, e.timeout, summary.bytes))
end
