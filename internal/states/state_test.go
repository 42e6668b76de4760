package states

import (
	"fmt"
	"sync"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
)

var testProvider = addrs.AbsProviderConfig{Provider: addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "null"}}

func mustAddr(t *testing.T, str string) addrs.AbsResourceInstance {
	t.Helper()
	addr, diags := addrs.ParseAbsResourceInstanceStr(str)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return addr
}

func TestDeposeAndRemovePruneEmptyContainers(t *testing.T) {
	state := NewState()
	addr := mustAddr(t, `module.m["a"].null_resource.n[0]`)
	state.SetResourceInstanceCurrent(addr, &ResourceInstanceObjectSrc{AttrsJSON: []byte(`{}`)}, testProvider)
	key := state.DeposeResourceInstanceObject(addr)
	inst := state.ResourceInstance(addr)
	if key == addrs.NotDeposed || inst.Current != nil || inst.Deposed[key] == nil {
		t.Fatalf("after deposing: key %q, instance %+v", key, inst)
	}
	state.SetResourceInstanceDeposed(addr, key, nil, testProvider)
	if state.ResourceInstance(addr) != nil || state.Module(addr.Module) != nil {
		t.Fatal("an instance with no objects left, or its module, is still in the state")
	}
}

func TestInstancesAreListedInStateFileOrder(t *testing.T) {
	state := NewState()
	for _, str := range []string{`b.x["k"]`, `b.x[10]`, `b.x[2]`, `a.y`, `data.a.z`, `module.m.a.a`} {
		state.SetResourceInstanceCurrent(mustAddr(t, str), &ResourceInstanceObjectSrc{}, testProvider)
	}
	var got []string
	for _, entry := range state.AllResourceInstances() {
		got = append(got, entry.Addr.String())
	}
	want := fmt.Sprint([]string{`data.a.z`, `a.y`, `b.x[2]`, `b.x[10]`, `b.x["k"]`, `module.m.a.a`})
	if fmt.Sprint(got) != want {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestSyncStateReportsEveryChangedInstanceOnce(t *testing.T) {
	synced := NewSyncState(NewState())
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			addr := mustAddr(t, fmt.Sprintf("null_resource.n[%d]", i))
			synced.SetIntent(addr, &Intent{Operation: IntentCreate, RunID: "r"}, testProvider)
			synced.SetResourceInstanceCurrent(addr, &ResourceInstanceObjectSrc{AttrsJSON: []byte(`{}`)}, testProvider)
			synced.SetIntent(addr, nil, testProvider)
		}()
	}
	wg.Wait()
	changed := synced.TakeChanged()
	if len(changed) != 50 {
		t.Fatalf("%d changed instances, want 50", len(changed))
	}
	for _, c := range changed {
		if c.Instance == nil || c.Instance.Intent != nil || c.Instance.Current == nil {
			t.Fatalf("%s: %+v", c.Addr, c.Instance)
		}
	}
	if len(synced.TakeChanged()) != 0 {
		t.Fatal("changes were reported twice")
	}
	copied := synced.ResourceInstance(mustAddr(t, "null_resource.n[0]"))
	copied.Current.AttrsJSON[0] = 'X'
	if synced.ResourceInstance(mustAddr(t, "null_resource.n[0]")).Current.AttrsJSON[0] != '{' {
		t.Fatal("a read copy shares memory with the state")
	}
}
