import AtelierServerAPI
import Vapor

/// Implements the generated `APIProtocol`. Each domain adds its operations in an extension
/// in its own `API` folder; handlers translate HTTP to service calls and back.
struct APIHandler: APIProtocol {
    let app: Application


    /// The Vapor request behind the current operation.
    func request() throws -> Request { try RequestContext.request() }
}
