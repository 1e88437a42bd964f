import AtelierAPI
import Foundation

extension DiscoveryClient {
    /// Likes or unlikes a product; the server's count afterwards.
    public func setLiked(productId: String, _ liked: Bool) async throws -> Components.Schemas.LikeState {
        liked ? try await likeProduct(productId: productId) : try await unlikeProduct(productId: productId)
    }

    /// Follows or unfollows a store; the server's count afterwards.
    public func setFollowing(storeId: String, _ following: Bool) async throws -> Components.Schemas.FollowState {
        following ? try await followStore(storeId: storeId) : try await unfollowStore(storeId: storeId)
    }
}

/// What a like changes on what a screen shows: the heart and the count.
protocol LikeShowing {
    var likeCount: Int { get set }
    var viewer: Components.Schemas.ProductViewerState? { get set }
}

extension LikeShowing {
    var isLiked: Bool { viewer?.liked ?? false }

    mutating func show(_ state: Components.Schemas.LikeState) {
        likeCount = state.likeCount
        if viewer == nil { viewer = .init(liked: state.liked, boardIds: [], cartQuantity: 0) }
        viewer?.liked = state.liked
    }

    /// The state a tap asks for, shown before the server answers.
    var toggled: Components.Schemas.LikeState {
        .init(liked: !isLiked, likeCount: max(0, likeCount + (isLiked ? -1 : 1)))
    }

    var likeState: Components.Schemas.LikeState { .init(liked: isLiked, likeCount: likeCount) }
}

extension Components.Schemas.ProductCard: LikeShowing {}
extension Components.Schemas.Product: LikeShowing {}
