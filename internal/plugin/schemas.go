package plugin

import (
	"sync"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/plugin/grpcprovider"
	"github.com/terrane/terrane/internal/plugin/schemacache"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// SchemaStore gives launched providers the schemas already known for their
// executables: decoded ones from memory (a run starts several processes of
// one provider) and encoded ones from the disk cache.
type SchemaStore struct {
	disk *schemacache.Cache

	mu      sync.Mutex
	decoded map[string]*providers.GetProviderSchemaResponse // by executable hash
}

// NewSchemaStore returns a store caching schemas on disk in dir.
func NewSchemaStore(dir string) *SchemaStore {
	return &SchemaStore{disk: schemacache.Open(dir), decoded: make(map[string]*providers.GetProviderSchemaResponse)}
}

// DefaultSchemaStore caches in schemacache.DefaultDir (TERRANE_SCHEMA_CACHE_DIR
// or the user's cache directory).
func DefaultSchemaStore() (*SchemaStore, error) {
	dir, err := schemacache.DefaultDir()
	if err != nil {
		return nil, err
	}
	return NewSchemaStore(dir), nil
}

// lookup returns the hash of the executable and the schema known for it,
// if any. A cache that cannot be read is only a slower start.
func (s *SchemaStore) lookup(path string, logger hclog.Logger) (string, *providers.GetProviderSchemaResponse) {
	hash, err := s.disk.BinaryHash(path)
	if err != nil {
		logger.Debug("not using the schema cache", "error", err)
		return "", nil
	}
	s.mu.Lock()
	known := s.decoded[hash]
	s.mu.Unlock()
	if known != nil {
		return hash, known
	}
	data, ok := s.disk.Load(hash)
	if !ok {
		return hash, nil
	}
	var raw tfplugin6.GetProviderSchema_Response
	if err := proto.Unmarshal(data, &raw); err != nil {
		logger.Warn("ignoring a damaged schema cache entry", "hash", hash, "error", err)
		return hash, nil
	}
	decoded := grpcprovider.DecodeSchema(&raw)
	if decoded.Diagnostics.HasErrors() {
		return hash, nil
	}
	s.remember(hash, &decoded)
	return hash, &decoded
}

func (s *SchemaStore) remember(hash string, decoded *providers.GetProviderSchemaResponse) {
	s.mu.Lock()
	s.decoded[hash] = decoded
	s.mu.Unlock()
}

// fetched returns the callback that caches a schema the provider sent.
func (s *SchemaStore) fetched(hash string, logger hclog.Logger) func(*tfplugin6.GetProviderSchema_Response, *providers.GetProviderSchemaResponse) {
	return func(raw *tfplugin6.GetProviderSchema_Response, decoded *providers.GetProviderSchemaResponse) {
		s.remember(hash, decoded)
		data, err := proto.MarshalOptions{Deterministic: true}.Marshal(raw)
		if err == nil {
			err = s.disk.Store(hash, data)
		}
		if err != nil {
			logger.Warn("could not cache the provider schema", "error", err)
		}
	}
}
