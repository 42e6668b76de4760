package recordstore_test

import (
	"reflect"
	"testing"

	"github.com/terrane/terrane/internal/states/recordstore"
)

// TestComponentChildren: a component's children are replaced wholesale on
// every write, listed in registration order, kept apart from a component
// whose address extends this one's, and all deleted by an empty write.
func TestComponentChildren(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.EnsureWorkspace(ctx); err != nil {
		t.Fatal(err)
	}
	left := recordstore.ComponentChild{Type: "tpulumi:index:Thing", Name: "p-left", URN: "urn:pulumi:s::p::Pair$Thing::p-left", ID: "1", OutputsJSON: []byte(`{"content":"a"}`)}
	right := recordstore.ComponentChild{Type: "tpulumi:index:Thing", Name: "p-right", URN: "urn:pulumi:s::p::Pair$Thing::p-right", ID: "2", OutputsJSON: []byte(`{}`)}
	other := recordstore.ComponentChild{Type: "tpulumi:index:Thing", Name: "q", URN: "urn:pulumi:s::p::Pair$Thing::q", ID: "3"}

	steps := []struct {
		component string
		write     []recordstore.ComponentChild
		want      []recordstore.ComponentChild
	}{
		{"tpulumi_pair.p", []recordstore.ComponentChild{right, left}, []recordstore.ComponentChild{right, left}},
		{"tpulumi_pair.p2", []recordstore.ComponentChild{other}, []recordstore.ComponentChild{other}},
		{"tpulumi_pair.p", []recordstore.ComponentChild{left}, []recordstore.ComponentChild{left}},
		{"tpulumi_pair.p", nil, []recordstore.ComponentChild{}},
	}
	for i, step := range steps {
		if err := s.WriteComponentChildren(ctx, step.component, step.write); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got, err := s.ComponentChildren(ctx, step.component)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, step.want) {
			t.Errorf("step %d: children of %s = %+v, want %+v", i, step.component, got, step.want)
		}
	}
	got, err := s.ComponentChildren(ctx, "tpulumi_pair.p2")
	if err != nil || len(got) != 1 || got[0].URN != other.URN {
		t.Errorf("the other component's children were touched: %+v, %v", got, err)
	}
	snapshot, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(snapshot.InstanceVersions); n != 0 {
		t.Errorf("child records show up as %d resource instances", n)
	}
}

// TestRelocateComponentChildren: child records follow state mv (renamed to
// the new address) and state rm (deleted); others stay.
func TestRelocateComponentChildren(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.EnsureWorkspace(ctx); err != nil {
		t.Fatal(err)
	}
	child := func(name string) recordstore.ComponentChild {
		return recordstore.ComponentChild{Type: "tpulumi:index:Thing", Name: name, URN: "urn:pulumi:s::p::Pair$Thing::" + name, ID: name + "-id"}
	}
	for addr, name := range map[string]string{"tpulumi_pair.a": "a", "tpulumi_pair.b": "b", "tpulumi_pair.c": "c"} {
		if err := s.WriteComponentChildren(ctx, addr, []recordstore.ComponentChild{child(name)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RelocateComponentChildren(ctx, map[string]string{"tpulumi_pair.a": "module.m.tpulumi_pair.a", "tpulumi_pair.b": ""}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"tpulumi_pair.a": "", "module.m.tpulumi_pair.a": "a", "tpulumi_pair.b": "", "tpulumi_pair.c": "c"}
	for addr, name := range want {
		got, err := s.ComponentChildren(ctx, addr)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case name == "" && len(got) != 0:
			t.Errorf("%s still has children %+v", addr, got)
		case name != "" && (len(got) != 1 || got[0].Name != name):
			t.Errorf("%s has children %+v, want %s", addr, got, name)
		}
	}
}
