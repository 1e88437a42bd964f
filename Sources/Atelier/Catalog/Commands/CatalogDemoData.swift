/// Made-up stores on real Gothenburg streets (coordinates near the street), brands and the
/// category tree for `atelier seed-demo`.
enum CatalogDemoData {
    static let stores: [(name: String, street: String, postalCode: String, lat: Double, lng: Double)] = [
        ("Linnéa Vintage", "Linnégatan 12", "413 04", 57.6969, 11.9530), ("Haga Threads", "Haga Nygata 8", "413 01", 57.6987, 11.9571),
        ("Vallgatan Studio", "Vallgatan 14", "411 16", 57.7051, 11.9650), ("Nordstan Denim", "Nils Ericsonsgatan 5", "411 03", 57.7087, 11.9690),
        ("Magasinet", "Magasinsgatan 22", "411 18", 57.7040, 11.9610), ("Larm & Linne", "Södra Larmgatan 6", "411 16", 57.7034, 11.9644),
        ("Långgatan Second Hand", "Andra Långgatan 20", "413 28", 57.6995, 11.9480), ("Drottning Atelier", "Drottninggatan 40", "411 07", 57.7060, 11.9640),
        ("Hamnen Workwear", "Östra Hamngatan 19", "411 10", 57.7075, 11.9700), ("Avenyn Edit", "Kungsportsavenyn 21", "411 36", 57.6990, 11.9750),
        ("Vasa Tailors", "Vasagatan 33", "411 24", 57.7005, 11.9690), ("Järntorget Rags", "Järntorget 4", "413 04", 57.6998, 11.9530),
        ("Masthugget Knit", "Masthuggstorget 3", "413 18", 57.6982, 11.9426), ("Karl Johan Kläder", "Karl Johansgatan 52", "414 55", 57.6924, 11.9142),
        ("Husargatan Shoes", "Övre Husargatan 7", "413 14", 57.6961, 11.9515), ("Skånegatan Sport", "Skånegatan 11", "412 51", 57.7005, 11.9868),
        ("Götaberg Boutique", "Götabergsgatan 2", "411 34", 57.6974, 11.9718), ("Dahlberg Denim", "Erik Dahlbergsgatan 16", "411 26", 57.6986, 11.9622),
        ("Viktoria Vintage", "Viktoriagatan 3", "411 25", 57.7003, 11.9605), ("Kaserntorget Kids", "Kaserntorget 11", "411 18", 57.7048, 11.9602),
        ("Västra Hamn Leather", "Västra Hamngatan 9", "411 17", 57.7064, 11.9635), ("Korsgatan Concept", "Korsgatan 17", "411 16", 57.7048, 11.9658),
        ("Kronhuset Crafts", "Kronhusgatan 1", "411 05", 57.7085, 11.9632), ("Postgatan Preloved", "Postgatan 26", "411 06", 57.7078, 11.9665),
        ("Norra Hamn Outdoor", "Norra Hamngatan 18", "411 06", 57.7071, 11.9620), ("Stigberget Style", "Stigbergstorget 6", "414 63", 57.6966, 11.9318),
        ("Mariaplan Mode", "Mariaplan 5", "414 71", 57.6855, 11.9130), ("Olivedal Objects", "Olivedalsgatan 9", "413 10", 57.6957, 11.9550),
        ("Majornas Märken", "Allmänna vägen 2", "414 60", 57.6930, 11.9270), ("Redbergs Rock", "Redbergsvägen 10", "416 65", 57.7150, 12.0070),
    ]

    static let brands = [
        "Nordvik", "Saltsjö", "Linnea & Co", "Fjällgran", "Havsblå", "Kvarnby", "Ostkust", "Sjöbris", "Tallmo", "Vitmossa",
        "Älvdal", "Granhed", "Björkö", "Solvik", "Marholm", "Rimfrost", "Klippan Studio", "Hedvig", "Lövudden", "Stenhamra",
        "Brisvind", "Ekholm", "Sandvik Denim", "Lingon", "Frostvik", "Hjortron", "Silverhav", "Vildros", "Skären", "Dimma",
        "Kustlinje", "Molnberg", "Ängsö", "Strandkorg", "Blåklint", "Norrsken", "Isfjord", "Kastanj", "Mossgrön", "Tidvatten",
    ]

    /// Top categories with their children and grandchildren.
    static let tree: [(name: String, gender: String, children: [(String, [String])])] = [
        ("Women", "women", [
            ("Tops", ["Shirts", "T-shirts", "Blouses", "Knitwear"]), ("Bottoms", ["Jeans", "Trousers", "Skirts"]),
            ("Dresses", ["Day dresses", "Evening dresses"]), ("Outerwear", ["Coats", "Jackets"]),
            ("Shoes", ["Sneakers", "Boots", "Heels"]), ("Accessories", ["Bags", "Scarves", "Jewellery"]),
        ]),
        ("Men", "men", [
            ("Tops", ["Shirts", "T-shirts", "Knitwear"]), ("Bottoms", ["Jeans", "Chinos", "Shorts"]),
            ("Outerwear", ["Coats", "Jackets"]), ("Suits", ["Suits", "Blazers"]), ("Shoes", ["Sneakers", "Boots"]),
            ("Accessories", ["Bags", "Belts", "Hats"]),
        ]),
    ]

    static let adjectives = ["Linen", "Wool", "Cotton", "Silk", "Organic", "Relaxed", "Cropped", "Oversized", "Slim", "Pleated",
                             "Striped", "Classic", "Soft", "Washed", "Recycled", "Vintage", "Ribbed", "Quilted"]
    static let colorRGB: [String: (Double, Double, Double)] = [
        "black": (30, 30, 32), "white": (250, 250, 248), "grey": (140, 140, 145), "beige": (214, 196, 168), "brown": (120, 80, 50),
        "red": (180, 30, 40), "pink": (230, 150, 170), "orange": (230, 120, 40), "yellow": (235, 200, 60), "green": (60, 120, 70),
        "blue": (50, 100, 180), "navy": (25, 35, 80), "purple": (110, 60, 140), "gold": (200, 160, 60), "silver": (190, 190, 200),
    ]

    /// What one piece of a category is called in a product title.
    static let nouns = [
        "Shirts": "shirt", "T-shirts": "t-shirt", "Blouses": "blouse", "Knitwear": "jumper", "Jeans": "jeans", "Trousers": "trousers",
        "Skirts": "skirt", "Day dresses": "day dress", "Evening dresses": "evening dress", "Coats": "coat", "Jackets": "jacket",
        "Sneakers": "sneakers", "Boots": "boots", "Heels": "heels", "Bags": "bag", "Scarves": "scarf", "Jewellery": "necklace",
        "Chinos": "chinos", "Shorts": "shorts", "Suits": "suit", "Blazers": "blazer", "Belts": "belt", "Hats": "hat",
    ]
}
