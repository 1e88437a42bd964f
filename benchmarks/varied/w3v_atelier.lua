-- W3v: product pages drawn from every active product.
mix = { { "product", 1 } }
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "atelier.lua")
