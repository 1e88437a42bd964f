-- GET /api/v1/products/{id} (public) over the 1 000 active products in product_ids.txt.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")

local next_request
function init(args)
  local built = {}
  for _, id in ipairs(read_lines("product_ids.txt")) do
    built[#built + 1] = wrk.format("GET", "/api/v1/products/" .. id, { ["Accept"] = "application/json" })
  end
  next_request = rotate(built)
end

function request()
  return next_request()
end
