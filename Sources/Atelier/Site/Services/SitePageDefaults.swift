/// The first text of the privacy policy and the terms, in place from the first start so that a
/// new installation has both pages; its admins replace them with their own.
enum SitePageDefaults {
    static let pages: [(SitePage.Slug, String, String)] = [
        (.privacy, "Privacy policy", """
            This installation of Atelier keeps what you give it to run the service for you, and nothing more.

            ## What we keep
            - Your account: email address, name, username, password (as a hash only), and the settings you choose.
            - What you add: closet photos and items, outfits, posts, comments, moments and their photos, orders, reviews.
            - What keeps you signed in and reachable: sessions, and the devices you allow to receive notifications.

            ## Who sees it
            Your posts and friends-only outfits are seen by your friends; moment photos by the moment's people; a profile
            by signed-in people you have not blocked. Stores see the orders you place with them.

            ## Your choices
            In Settings you can download all your data and delete your account, which removes your personal data and photos.

            Questions? Write to us through the [contact form](/contact).
            """),
        (.terms, "Terms of use", """
            By creating an account you agree to these terms.

            - Be kind: no harassment, hate or spam. Reported content may be hidden and accounts suspended.
            - Post only photos you may share. You keep the rights to what you post; you let us show it to the people you share it with.
            - Orders are between you and the store you order from, under the store's own conditions and the law.
            - We may change these terms; the date of this page tells when they last changed.

            Questions? Write to us through the [contact form](/contact).
            """),
    ]
}
