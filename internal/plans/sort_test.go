package plans

import (
	"slices"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
)

// TestSortResourceInstanceChangesOrdersByAddressThenDeposedKey: changes
// are ordered by their address as a string ("[10]" before "[2]"), the
// changes to one instance by deposed key, the current object first.
func TestSortResourceInstanceChangesOrdersByAddressThenDeposedKey(t *testing.T) {
	change := func(addr string, deposed addrs.DeposedKey) *ResourceInstanceChangeSrc {
		a, ds := addrs.ParseAbsResourceInstanceStr(addr)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		return &ResourceInstanceChangeSrc{ResourceInstanceChangeHeader: ResourceInstanceChangeHeader{Addr: a, DeposedKey: deposed}}
	}
	changes := []*ResourceInstanceChangeSrc{
		change("tpf_thing.b[2]", addrs.NotDeposed),
		change("module.m.tpf_thing.a", addrs.NotDeposed),
		change("tpf_thing.b[10]", "00000002"),
		change("tpf_thing.a", addrs.NotDeposed),
		change("tpf_thing.b[10]", addrs.NotDeposed),
		change("tpf_thing.b[10]", "00000001"),
	}
	SortResourceInstanceChanges(changes)
	var got []string
	for _, c := range changes {
		got = append(got, c.ObjectName())
	}
	want := []string{
		"module.m.tpf_thing.a",
		"tpf_thing.a",
		"tpf_thing.b[10]",
		"tpf_thing.b[10] (deposed object 00000001)",
		"tpf_thing.b[10] (deposed object 00000002)",
		"tpf_thing.b[2]",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("sorted as %q, want %q", got, want)
	}
}
