// An app imports AtelierKit alone: the generated types (Components.Schemas.*) come with it.
@_exported import AtelierAPI
