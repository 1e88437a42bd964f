-- W2 browse: active products of one category (pb_w2_category.txt) priced 200–800 (minor units
-- 20000–80000), newest first, with their store, 20 per page (public).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "pb.lua")

fixed_get(function()
  local category = read_lines("pb_w2_category.txt")[1]
  local filter = string.format("(active=true && category='%s' && price>=20000 && price<=80000)", category)
  return records .. "?" .. query({
    { "filter", filter }, { "sort", "-created" }, { "perPage", 20 }, { "expand", "store" }, { "skipTotal", 1 } })
end)
