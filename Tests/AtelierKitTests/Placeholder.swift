import Testing
import AtelierKit
