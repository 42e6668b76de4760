package encryption

import (
	"github.com/terrane/terrane/internal/encryption/keyprovider"
	"github.com/terrane/terrane/internal/encryption/keyprovider/awskms"
	"github.com/terrane/terrane/internal/encryption/keyprovider/gcpkms"
	"github.com/terrane/terrane/internal/encryption/keyprovider/openbao"
)

// cloudKeyProviders are the key providers backed by a cloud key service.
func cloudKeyProviders() []keyprovider.Type {
	return []keyprovider.Type{awskms.Type{}, gcpkms.Type{}, openbao.Type{}}
}
