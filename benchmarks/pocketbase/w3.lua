-- W3 product detail with store and category, over the 1 000 active products of pb_product_ids.txt (public).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "pb.lua")

local next_request
function init(args)
  local built = {}
  for _, id in ipairs(read_lines("pb_product_ids.txt")) do
    built[#built + 1] = wrk.format("GET", records .. "/" .. id .. "?expand=store%2Ccategory", json_accept)
  end
  next_request = rotate(built)
end

function request()
  return next_request()
end
