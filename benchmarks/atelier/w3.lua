-- W3 product detail (store, brand, category embedded), public, over the 1 000 ids of product_ids.txt.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "../discovery/product.lua")
