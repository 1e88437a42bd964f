import AtelierServerAPI
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// `GET /products/{productId}` and `GET /products`, the product page and the browse list, with
/// their answers written by `JSONBytes` (`JSONBytesTransport`). The inputs are decoded as the
/// generated server decodes them, call for call; `ProductJSONBytesTests` checks that every
/// parameter the contract gives these operations is read, and compares the bodies with the encoder's.
extension APIHandler {
    static func jsonBytesOperations(_ handler: APIHandler, serverURL: URL, configuration: Configuration) throws -> [String: JSONBytesTransport.Handler] {
        let server = UniversalServer(serverURL: serverURL, handler: handler, configuration: configuration, middlewares: [])
        let converter = server.converter

        let getProduct: JSONBytesTransport.Handler = { request, body, metadata in
            try await server.handle(
                request: request, requestBody: body, metadata: metadata, forOperation: Operations.GetProduct.id,
                using: { $0.getProduct },
                deserializer: { request, _, metadata in try getProductInput(request, metadata, converter) },
                serializer: { output, request in
                    guard case .ok(let ok) = output, case .json(let product) = ok.body else {
                        throw JSONBytesTransport.UnexpectedOutput(operationID: Operations.GetProduct.id)
                    }
                    return try JSONBytesTransport.ok(product, to: request, converter: converter, capacity: 8 << 10)
                })
        }

        let listProducts: JSONBytesTransport.Handler = { request, body, metadata in
            try await server.handle(
                request: request, requestBody: body, metadata: metadata, forOperation: Operations.ListProducts.id,
                using: { $0.listProducts },
                deserializer: { request, _, _ in try listProductsInput(request, converter) },
                serializer: { output, request in
                    guard case .ok(let ok) = output, case .json(let page) = ok.body else {
                        throw JSONBytesTransport.UnexpectedOutput(operationID: Operations.ListProducts.id)
                    }
                    return try JSONBytesTransport.ok(page, to: request, converter: converter, capacity: 32 << 10)
                })
        }

        return [
            JSONBytesTransport.key(.get, try server.apiPathComponentsWithServerPrefix("/products/{productId}")): getProduct,
            JSONBytesTransport.key(.get, try server.apiPathComponentsWithServerPrefix("/products")): listProducts,
        ]
    }

    static func getProductInput(_ request: HTTPRequest, _ metadata: ServerRequestMetadata, _ converter: Converter) throws -> Operations.GetProduct.Input {
        Operations.GetProduct.Input(
            path: .init(productId: try converter.getPathParameterAsURI(
                in: metadata.pathParameters, name: "productId", as: Components.Parameters.ProductId.self)),
            headers: .init(accept: try converter.extractAcceptHeaderIfPresent(in: request.headerFields)))
    }

    static func listProductsInput(_ request: HTTPRequest, _ converter: Converter) throws -> Operations.ListProducts.Input {
        let items = QueryItemsByName(request.soar_query)
        func query<T: Decodable>(_ name: String, as type: T.Type) throws -> T? {
            try converter.getOptionalQueryItemAsURI(in: items[name], style: .form, explode: true, name: name, as: type)
        }
        return Operations.ListProducts.Input(
            query: .init(
                categoryId: try query("categoryId", as: String.self), brandId: try query("brandId", as: String.self),
                priceMin: try query("priceMin", as: Int64.self), priceMax: try query("priceMax", as: Int64.self),
                limit: try query("limit", as: Components.Parameters.Limit.self),
                cursor: try query("cursor", as: Components.Parameters.Cursor.self)),
            headers: .init(accept: try converter.extractAcceptHeaderIfPresent(in: request.headerFields)))
    }
}
