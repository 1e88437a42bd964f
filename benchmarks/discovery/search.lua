-- GET /api/v1/search/products (public): a few words, some with filters, sorts and a place.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local next_request
function init(args)
  local lat, lng = read_lines("places.txt")[1]:match("^(%S+)%s+(%S+)")
  local queries = {
    "q=shirt", "q=shirt&color=blue", "q=dress", "q=jeans&gender=women", "q=linen", "q=wool%20coat",
    "q=sneakers&size=42", "q=black&sort=price_asc", "q=jacket&onSale=true", "q=knit&color=grey&gender=men",
    "q=shirt&lat=" .. lat .. "&lng=" .. lng .. "&radiusKm=10", "q=silk%20dress&sort=newest",
  }
  local built = {}
  for _, q in ipairs(queries) do
    built[#built + 1] = wrk.format("GET", "/api/v1/search/products?" .. q, { ["Accept"] = "application/json" })
  end
  next_request = rotate(built)
end

function request()
  return next_request()
end
