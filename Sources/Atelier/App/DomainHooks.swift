import Vapor

/// Where a lower domain learns of a higher one's entities and events: the composition root registers
/// the higher domains' parts with the lower ones at start-up (docs/architecture.md). Search's SQL
/// functions are registered earlier, in `configure`, before the database opens.
enum DomainHooks {
    static func register(_ app: Application) {
        let services = app.atelier
        let (core, media) = (app.core, services.media)
        // Accounts' web pages: after a sign-in the signed-out cart moves into the account's; a sign-out
        // forgets this browser's push subscription; the settings page shows notification preferences.
        app.webAccountParts.onSignIn { try await WebCart.moveSignedOutCart($0, into: $1) }
        app.webAccountParts.onSignOut { try await NotificationSettingsWebRoutes.forgetSubscription(of: $0) }
        app.webAccountParts.addSettingsSection { try await NotificationSettingsWebRoutes.pageValues($0, $1) }
        // Media: who may see a private photo attached to a post or a moment photo; which media is a
        // store's or the magazine's rather than a person's.
        PostService.registerMediaAccess(in: services.mediaOwners, core: core, mediaLibrary: media)
        MomentPhotoService.registerMediaAccess(in: services.mediaOwners, core: core, live: services.live, mediaLibrary: media)
        for ownerType in [ProductService.mediaOwnerType, "store", "brand", "magazine", MagazinePDFs.mediaOwnerType] {
            services.mediaOwners.registerShared(ownerType: ownerType)
        }
        // Accounts: what each domain removes when an account is deleted (in this order, in one
        // transaction; see AccountDeletion) and adds to its export.
        LikesAndFollowsDeletion.register(in: services.accountParts, catalogChanges: services.catalogChanges)
        PersonalMediaDeletion.register(in: services.accountParts, core: core, mediaLibrary: media)
        MomentPhotosDeletion.register(in: services.accountParts, core: core, mediaLibrary: media)
        OwnerlessStores.register(in: services.accountParts, live: services.live, catalogChanges: services.catalogChanges)
        CustomerDeletion.register(in: services.accountParts, catalogChanges: services.catalogChanges)
        SocialExport.register(in: services.accountParts, core: core, live: services.live)
        // Accounts' sign-up: an invite link connects the new account with the inviter; a provider's
        // picture becomes the profile picture.
        services.accountParts.redeemInvites { token in InviteLinkService.joining(token, core: core) }
        services.accountParts.importProviderPictures { url, user, db, logger in
            await ProviderPictureImport(db: db, core: core, mediaLibrary: media, logger: logger).importPicture(from: url, for: user)
        }
        WardrobeExport.register(in: services.accountParts)
        services.accountParts.copyOriginals { key, url in try await media.copyOriginal(key, to: url) }
        // Social's moderation: magazine comments and reviews can be reported and hidden.
        MagazineReaders.registerModeration(in: services.moderationTargets, core: core)
        ReviewService.registerModeration(in: services.moderationTargets)
        // Notifications' live channels: a moment's album; blocked people's events stay hidden.
        MomentService.registerLiveChannel(in: services.liveAccess, core: core, mediaLibrary: media)
        SocialGraph.registerLiveHiding(in: services.liveAccess)
        // Discovery's shopping preferences: the wardrobe's size profile.
        ShoppingPreferences.register(in: services.shoppingPreferences)
        // Notifications' inbox: blocked people's entries are hidden; actors are drawn as people cards.
        PeopleDirectory.registerInboxRules(in: services.inboxPeople, core: core, mediaLibrary: media)
    }
}
