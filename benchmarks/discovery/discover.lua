-- GET /api/v1/feed/discover with filters (women, 10 km around a city centre), signed in, rotating
-- over shoppers and the cities of places.txt.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local next_request
function init(args)
  local tokens, places, built = read_lines("tokens.txt"), read_lines("places.txt"), {}
  for i, token in ipairs(tokens) do
    local lat, lng = places[(i % #places) + 1]:match("^(%S+)%s+(%S+)")
    local path = string.format("/api/v1/feed/discover?gender=women&radiusKm=10&lat=%s&lng=%s", lat, lng)
    built[#built + 1] = wrk.format("GET", path, auth_headers(token))
  end
  next_request = rotate(built)
end

function request()
  return next_request()
end
