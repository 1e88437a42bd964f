-- W6: about 90 % reads (feeds, browsing, product pages, search) and 10 % writes (likes; a third of the
-- writes are the unlikes that follow half of the likes).
mix = { { "feed", 0.10 }, { "browse", 0.25 }, { "product", 0.30 }, { "search", 0.20 }, { "like", 0.067 } }
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "atelier.lua")
