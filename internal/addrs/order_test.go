package addrs

import (
	"sort"
	"testing"
)

// TestAbsResourceInstanceLess sorts addresses into OpenTofu's order
// (internal/addrs Less methods): root module first, shorter module paths
// before longer, data before managed, count keys numerically, no key
// before int keys before string keys.
func TestAbsResourceInstanceLess(t *testing.T) {
	want := []string{
		`data.x_a.z`,
		`x_a.b`,
		`x_a.n[2]`,
		`x_a.n[10]`,
		`x_a.s["a"]`,
		`x_a.s["b"]`,
		`x_b.a`,
		`module.a.x_a.b`,
		`module.b[2].x_a.a`,
		`module.b[10].x_a.a`,
		`module.b["k"].x_a.a`,
		`module.a.module.z.x_a.a`,
	}
	addrs := make([]AbsResourceInstance, len(want))
	for i := range want {
		addr, diags := ParseAbsResourceInstanceStr(want[len(want)-1-i])
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		addrs[i] = addr
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i].Less(addrs[j]) })
	for i, addr := range addrs {
		if addr.String() != want[i] {
			t.Errorf("position %d: got %s, want %s", i, addr, want[i])
		}
		if addr.Less(addr) || !addr.Equal(addr) {
			t.Errorf("%s is less than itself or not equal to itself", addr)
		}
	}
}
