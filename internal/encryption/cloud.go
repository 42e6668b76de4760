package encryption

import "github.com/terrane/terrane/internal/encryption/keyprovider"

// cloudKeyProviders are the key providers backed by a cloud key service.
func cloudKeyProviders() []keyprovider.Type { return nil }
