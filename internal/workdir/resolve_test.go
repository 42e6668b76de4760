package workdir

import (
	"testing"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

func TestPackageRequirementsServeSubpackagesFromTheirBase(t *testing.T) {
	base := addrs.NewDefaultProvider("tpulumi")
	widgets := addrs.NewDefaultProvider("widgets")
	gizmos := addrs.NewDefaultProvider("gizmos")
	constraint := func(raw string) discovery.Constraints {
		spec, err := constraints.ParseRubyStyleMulti(raw)
		if err != nil {
			t.Fatal(err)
		}
		return spec
	}
	got := PackageRequirements(
		map[addrs.Provider]discovery.Constraints{base: constraint(">= 0.1"), widgets: constraint("~> 0.1"), gizmos: nil},
		map[addrs.Provider]Subpackage{widgets: {Base: base, Args: []string{"widgets"}}, gizmos: {Base: base, Args: []string{"gizmos"}}},
	)
	if len(got) != 1 {
		t.Fatalf("packages %v, want only the base package", got)
	}
	if n := len(got[base]); n != 2 {
		t.Errorf("the base package carries %d constraints (%v), want its own and widgets'", n, got[base])
	}
}

func TestSubpackageParametersReplayAMatchingRecord(t *testing.T) {
	base := addrs.NewDefaultProvider("tpulumi")
	widgets := addrs.NewDefaultProvider("widgets")
	want := Subpackage{Base: base, Args: []string{"widgets"}}
	record := &depsfile.Parameterization{Base: base, Args: []string{"widgets"}, Name: "widgets", Version: "1.0.0", Value: []byte("widgets")}
	tests := map[string]struct {
		lock      *depsfile.ProviderLock
		wantValue bool
	}{
		"no lock":          {nil, false},
		"matching record":  {depsfile.NewProviderLock(widgets, versionOf(t, "0.1.0"), nil, nil).WithParameterization(record), true},
		"other parameters": {depsfile.NewProviderLock(widgets, versionOf(t, "0.1.0"), nil, nil).WithParameterization(&depsfile.Parameterization{Base: base, Args: []string{"old"}}), false},
		"plain lock":       {depsfile.NewProviderLock(widgets, versionOf(t, "0.1.0"), nil, nil), false},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			params := subpackageParameters(want, test.lock)
			if gotValue := params.Value != nil; gotValue != test.wantValue {
				t.Errorf("replays the record: %v, want %v (parameters %+v)", gotValue, test.wantValue, params)
			}
			if !test.wantValue && (len(params.Args) != 1 || params.Args[0] != "widgets") {
				t.Errorf("args = %v, want the configuration's", params.Args)
			}
		})
	}
}

func versionOf(t *testing.T, raw string) versions.Version {
	t.Helper()
	v, err := versions.ParseVersion(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
