package resourceservice

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// Metadata keys the gRPC service reads.
const (
	// TokenMetadataKey carries the bearer token, as Consul's clients send it.
	TokenMetadataKey = "x-consul-token"
	// ConsistencyMetadataKey set to "consistent" asks for a strongly
	// consistent Read or List.
	ConsistencyMetadataKey = "x-consul-consistency-mode"
	// ForceDeleteMetadataKey set to "true" makes Delete skip the type's
	// guard (e.g. deleting a workspace that still owns resource instances).
	ForceDeleteMetadataKey = "x-terrane-force-delete"
)

// Grant is the tenancy a token may use; store.Wildcard in a unit allows all.
type Grant struct {
	Partition, Namespace string
}

// FullAccess is the grant of a token without a tenancy restriction.
var FullAccess = Grant{Partition: store.Wildcard, Namespace: store.Wildcard}

// Allows reports whether the grant covers a tenancy.
func (g Grant) Allows(tenancy *pbresource.Tenancy) bool { return g.allows(tenancy) }

func (g Grant) allows(tenancy *pbresource.Tenancy) bool {
	unitAllowed := func(granted, wanted string) bool { return granted == store.Wildcard || granted == wanted }
	return unitAllowed(g.Partition, tenancy.GetPartition()) && unitAllowed(g.Namespace, tenancy.GetNamespace())
}

// Tokens maps bearer tokens to grants. Tokens are kept only as SHA-256
// hashes, so a lookup's timing says nothing useful about a token. A nil or
// empty Tokens lets every caller do everything.
type Tokens struct {
	grants map[[sha256.Size]byte]Grant
}

// ParseTokens reads token specifications: "SECRET" grants everything;
// "SECRET@PARTITION/NAMESPACE" grants one tenancy (either unit may be "*").
// In Terrane's records the partition is the project and the namespace the
// workspace.
func ParseTokens(specs []string) (*Tokens, error) {
	tokens := &Tokens{grants: map[[sha256.Size]byte]Grant{}}
	for i, spec := range specs {
		secret, scope, scoped := strings.Cut(spec, "@")
		grant := FullAccess
		if scoped {
			partition, namespace, ok := strings.Cut(scope, "/")
			if !ok || partition == "" || namespace == "" {
				return nil, fmt.Errorf("token %d: scope %q must be PARTITION/NAMESPACE (project/workspace, \"*\" for any)", i+1, scope)
			}
			grant = Grant{Partition: partition, Namespace: namespace}
		}
		if secret == "" {
			return nil, fmt.Errorf("token %d is empty", i+1)
		}
		tokens.grants[sha256.Sum256([]byte(secret))] = grant
	}
	return tokens, nil
}

// authorize returns the caller's grant: Unauthenticated without a token,
// PermissionDenied with an unknown one.
func (t *Tokens) authorize(ctx context.Context) (Grant, error) {
	if t == nil || len(t.grants) == 0 {
		return FullAccess, nil
	}
	values := metadata.ValueFromIncomingContext(ctx, TokenMetadataKey)
	if len(values) == 0 || values[0] == "" {
		return Grant{}, errorf(codes.Unauthenticated, "this store needs a token: send it in the %q metadata (terrane: -token or TERRANE_TOKEN)", TokenMetadataKey)
	}
	return t.Authorize(values[0])
}

// Open reports whether the tokens let every caller do everything (none
// were given).
func (t *Tokens) Open() bool { return t == nil || len(t.grants) == 0 }

// Authorize returns the grant of a bearer token presented some other way
// than gRPC metadata (the web view's requests): everything when there are
// no tokens, Unauthenticated for an empty token, PermissionDenied for an
// unknown one.
func (t *Tokens) Authorize(token string) (Grant, error) {
	if t == nil || len(t.grants) == 0 {
		return FullAccess, nil
	}
	if token == "" {
		return Grant{}, errorf(codes.Unauthenticated, "this server needs a token")
	}
	grant, ok := t.grants[sha256.Sum256([]byte(token))]
	if !ok {
		return Grant{}, errorf(codes.PermissionDenied, "the token is not known to this store")
	}
	return grant, nil
}

// authorizeTenancy checks the caller may use one concrete tenancy.
func (t *Tokens) authorizeTenancy(ctx context.Context, tenancy *pbresource.Tenancy) (Grant, error) {
	grant, err := t.authorize(ctx)
	if err != nil {
		return grant, err
	}
	tenancy, err = normalizeTenancy(tenancy, true)
	if err != nil {
		return grant, err
	}
	if !grant.allows(tenancy) {
		return grant, errorf(codes.PermissionDenied, "the token does not grant access to tenancy %s/%s", tenancy.GetPartition(), tenancy.GetNamespace())
	}
	return grant, nil
}

func metadataValue(ctx context.Context, key string) string {
	values := metadata.ValueFromIncomingContext(ctx, key)
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

func consistencyFrom(ctx context.Context) store.ReadConsistency {
	if metadataValue(ctx, ConsistencyMetadataKey) == "consistent" {
		return store.StrongConsistency
	}
	return store.EventualConsistency
}
