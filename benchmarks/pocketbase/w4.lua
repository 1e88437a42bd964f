-- W4 text search "shirt": active products whose title contains it (PocketBase's ~ is a LIKE
-- '%shirt%'), newest first, 20 (public).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "pb.lua")

fixed_get(function()
  return records .. "?" .. query({
    { "filter", "(active=true && title~'shirt')" }, { "sort", "-created" }, { "perPage", 20 }, { "skipTotal", 1 } })
end)
