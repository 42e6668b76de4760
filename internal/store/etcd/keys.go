package etcd

import (
	"net/url"
	"strings"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// keys builds the key layout described in the package documentation.
type keys struct{ prefix string }

func (k keys) resourceRoot() string { return k.prefix + "r/" }

func (k keys) typePrefix(t *pbresource.Type) string {
	return k.resourceRoot() + url.PathEscape(t.GetGroup()) + "/" + url.PathEscape(t.GetKind()) + "/"
}

func (k keys) resource(id *pbresource.ID) string {
	return k.typePrefix(id.GetType()) + url.PathEscape(id.GetTenancy().GetPartition()) + "/" +
		url.PathEscape(id.GetTenancy().GetNamespace()) + "/" + id.GetName()
}

// listPrefix is the narrowest key prefix covering a List: wildcard units
// widen it, and the caller filters what it returns.
func (k keys) listPrefix(t *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) string {
	prefix := k.typePrefix(t)
	partition, namespace := tenancy.GetPartition(), tenancy.GetNamespace()
	if tenancy == nil || partition == store.Wildcard {
		return prefix
	}
	prefix += url.PathEscape(partition) + "/"
	if namespace == store.Wildcard {
		return prefix
	}
	return prefix + url.PathEscape(namespace) + "/" + namePrefix
}

func (k keys) ownerPrefix(owner *pbresource.ID) string {
	parts := []string{owner.GetType().GetGroup(), owner.GetType().GetKind(), owner.GetTenancy().GetPartition(),
		owner.GetTenancy().GetNamespace(), owner.GetName(), owner.GetUid()}
	for i, part := range parts {
		parts[i] = url.PathEscape(part)
	}
	return k.prefix + "o/" + strings.Join(parts, "/") + "/"
}

func (k keys) ownerEntry(owner, owned *pbresource.ID) string {
	return k.ownerPrefix(owner) + strings.TrimPrefix(k.resource(owned), k.resourceRoot())
}

func (k keys) claim(name string) string { return k.prefix + "claims/" + name }

// prefixEnd is the first key after every key starting with prefix.
func prefixEnd(prefix string) string {
	end := []byte(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return string(end[:i+1])
		}
	}
	return "\x00" // the whole keyspace
}
