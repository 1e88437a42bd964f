-- GET /api/v1/feed/following as several signed-in shoppers in turn (their saved filters apply).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local next_request
function init(args)
  local built = {}
  for _, token in ipairs(read_lines("tokens.txt")) do
    built[#built + 1] = wrk.format("GET", "/api/v1/feed/following", auth_headers(token))
  end
  next_request = rotate(built)
end

function request()
  return next_request()
end
