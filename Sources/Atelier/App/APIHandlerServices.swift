extension APIHandler {
    /// The container the domains' operations build their services from (narrowed by issue 54).
    var services: AtelierServices { app.atelier }
}
