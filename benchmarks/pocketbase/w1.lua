-- W1 feed: the 20 newest active products with their store (public).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "pb.lua")

fixed_get(function()
  return records .. "?" .. query({
    { "filter", "(active=true)" }, { "sort", "-created" }, { "perPage", 20 }, { "expand", "store" }, { "skipTotal", 1 } })
end)
