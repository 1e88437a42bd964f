// Generated code lives in the build folder; see openapi.yaml at the package root.
