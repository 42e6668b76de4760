package store_test

import (
	"errors"
	"testing"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

func TestMatches(t *testing.T) {
	res := &pbresource.Resource{Id: &pbresource.ID{
		Type:    &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"},
		Tenancy: &pbresource.Tenancy{Partition: "proj", Namespace: "prod"},
		Name:    "module.a.null_resource.n[0]",
	}}
	instance := &pbresource.Type{Group: "terrane", GroupVersion: "v2", Kind: "ResourceInstance"}
	tests := []struct {
		name    string
		resType *pbresource.Type
		tenancy *pbresource.Tenancy
		prefix  string
		want    bool
	}{
		{"exact, other GroupVersion", instance, &pbresource.Tenancy{Partition: "proj", Namespace: "prod"}, "", true},
		{"name prefix", instance, &pbresource.Tenancy{Partition: "proj", Namespace: "prod"}, "module.a.", true},
		{"other name prefix", instance, &pbresource.Tenancy{Partition: "proj", Namespace: "prod"}, "module.b.", false},
		{"other kind", &pbresource.Type{Group: "terrane", Kind: "Output"}, nil, "", false},
		{"other group", &pbresource.Type{Group: "consul", Kind: "ResourceInstance"}, nil, "", false},
		{"wildcard namespace", instance, &pbresource.Tenancy{Partition: "proj", Namespace: store.Wildcard}, "", true},
		{"wildcard partition", instance, &pbresource.Tenancy{Partition: store.Wildcard, Namespace: "prod"}, "", true},
		{"wildcard partition, other namespace", instance, &pbresource.Tenancy{Partition: store.Wildcard, Namespace: "dev"}, "", false},
		{"nil tenancy matches all", instance, nil, "", true},
		{"empty units are exact, not wildcards", instance, &pbresource.Tenancy{}, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.Matches(res, tc.resType, tc.tenancy, tc.prefix); got != tc.want {
				t.Fatalf("Matches = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCheckWrite(t *testing.T) {
	stored := &pbresource.Resource{Id: &pbresource.ID{Uid: "u1"}, Version: "7"}
	tests := []struct {
		name   string
		stored *pbresource.Resource
		write  *pbresource.Resource
		want   error
	}{
		{"create", nil, &pbresource.Resource{Id: &pbresource.ID{Uid: "u1"}}, nil},
		{"update of absent", nil, &pbresource.Resource{Id: &pbresource.ID{Uid: "u1"}, Version: "7"}, store.ErrCASFailure},
		{"create over existing", stored, &pbresource.Resource{Id: &pbresource.ID{Uid: "u1"}}, store.ErrCASFailure},
		{"update", stored, &pbresource.Resource{Id: &pbresource.ID{Uid: "u1"}, Version: "7"}, nil},
		{"stale update", stored, &pbresource.Resource{Id: &pbresource.ID{Uid: "u1"}, Version: "6"}, store.ErrCASFailure},
		{"other uid", stored, &pbresource.Resource{Id: &pbresource.ID{Uid: "u2"}, Version: "7"}, store.ErrWrongUid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := store.CheckWrite(tc.stored, tc.write); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Fatalf("CheckWrite = %v, want %v", err, tc.want)
			}
		})
	}
}
