-- W2v: category × price-window combinations of v_browse.txt, newest first, store embedded.
mix = { { "browse", 1 } }
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "atelier.lua")
