import Fluent
import Testing

@testable import Atelier

/// Models read on every request list their properties by hand (issue 19: Fluent otherwise finds
/// them by reflection on every decode, query and save). A list must stay what reflection finds.
@Suite("Models' hand-written property lists")
struct ModelPropertiesTests {
    @Test("each list is every property reflection finds, in the same order, the model's own")
    func listsMatchReflection() {
        let models: [any Fields] = [User(), Follow()]
        for model in models {
            let name = String(describing: type(of: model))
            let reflected = Mirror(reflecting: model).children.compactMap { $0.value as? any AnyProperty }
            let listed = model.properties
            #expect(listed.count == reflected.count, "\(name)")
            #expect(listed.map(ObjectIdentifier.init) == reflected.map(ObjectIdentifier.init), "\(name)")
            let keys = { (properties: [any AnyProperty]) in properties.compactMap { $0 as? any AnyDatabaseProperty }.flatMap(\.keys) }
            #expect(keys(listed) == keys(reflected), "\(name)")
        }
    }
}
