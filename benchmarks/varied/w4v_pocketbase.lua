-- W4v: several hundred title words, alone and with a gender or price filter.
mix = { { "search", 1 } }
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "pocketbase.lua")
