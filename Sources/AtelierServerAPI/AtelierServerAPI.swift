// Generated code lives in the build folder (the OpenAPIGenerator plugin); see openapi.yaml at the package root.
