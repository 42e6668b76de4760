package addrs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestAbsResourceInstanceRoundTrip(t *testing.T) {
	tests := []struct {
		str  string
		want AbsResourceInstance
	}{
		{"null_resource.n", AbsResourceInstance{Resource: ResourceInstance{Resource: Resource{ManagedResourceMode, "null_resource", "n"}}}},
		{"null_resource.n[3]", AbsResourceInstance{Resource: ResourceInstance{Resource{ManagedResourceMode, "null_resource", "n"}, IntKey(3)}}},
		{"data.x.y", AbsResourceInstance{Resource: ResourceInstance{Resource: Resource{DataResourceMode, "x", "y"}}}},
		{`module.a["x"].null_resource.n[3]`, AbsResourceInstance{
			Module:   ModuleInstance{{Name: "a", Key: StringKey("x")}},
			Resource: ResourceInstance{Resource{ManagedResourceMode, "null_resource", "n"}, IntKey(3)},
		}},
		{`module.a.module.b[0].data.http.page["a \"quoted\" \\ key"]`, AbsResourceInstance{
			Module:   ModuleInstance{{Name: "a"}, {Name: "b", Key: IntKey(0)}},
			Resource: ResourceInstance{Resource{DataResourceMode, "http", "page"}, StringKey(`a "quoted" \ key`)},
		}},
		{`aws_instance.web["$${not} %%{interp}\n\tü"]`, AbsResourceInstance{
			Resource: ResourceInstance{Resource{ManagedResourceMode, "aws_instance", "web"}, StringKey("${not} %{interp}\n\tü")},
		}},
	}
	for _, test := range tests {
		t.Run(test.str, func(t *testing.T) {
			got, diags := ParseAbsResourceInstanceStr(test.str)
			if diags.HasErrors() {
				t.Fatalf("unexpected error: %s", diags.Error())
			}
			if got.UniqueKey() != test.want.UniqueKey() {
				t.Fatalf("parsed %#v, want %#v", got, test.want)
			}
			if got.String() != test.str {
				t.Fatalf("String() = %s, want %s", got.String(), test.str)
			}
		})
	}
}

func TestAbsResourceInstanceParseErrors(t *testing.T) {
	tests := []struct {
		str     string
		summary string
	}{
		{"null_resource", "Invalid resource address"},
		{"null_resource.n.extra", "Invalid resource instance address"},
		{"null_resource.n[1][2]", "Invalid resource instance address"},
		{"null_resource.n[true]", "Index value required"},
		{"null_resource.n[-1]", "Index value required"},
		{"module", "Invalid address"},
		{"module.a.", "Attribute name required"},
	}
	for _, test := range tests {
		t.Run(test.str, func(t *testing.T) {
			_, diags := ParseAbsResourceInstanceStr(test.str)
			if !diags.HasErrors() {
				t.Fatalf("no error for %q", test.str)
			}
			if diags[0].Summary != test.summary {
				t.Fatalf("summary %q, want %q", diags[0].Summary, test.summary)
			}
		})
	}
}

func TestAbsResourceRejectsInstanceKey(t *testing.T) {
	if _, diags := ParseAbsResourceStr("aws_instance.web[0]"); !diags.HasErrors() {
		t.Fatal("a resource address with an instance key was accepted")
	}
	got, diags := ParseAbsResourceStr("module.m[1].aws_instance.web")
	if diags.HasErrors() || got.String() != "module.m[1].aws_instance.web" {
		t.Fatalf("got %s, %s", got, diags.Error())
	}
	if got.Config().String() != "module.m.aws_instance.web" {
		t.Fatalf("Config() = %s", got.Config())
	}
}

func TestModuleInstanceRoundTrip(t *testing.T) {
	for _, str := range []string{"", "module.a", `module.a["x"].module.b[0]`, "module.a[0].module.b.module.c"} {
		got, diags := ParseModuleInstanceStr(str)
		if diags.HasErrors() {
			t.Fatalf("%q: %s", str, diags.Error())
		}
		if got.String() != str {
			t.Fatalf("%q printed as %q", str, got.String())
		}
	}
	if _, diags := ParseModuleStr("module.a[0]"); !diags.HasErrors() {
		t.Fatal("a static module path with an instance key was accepted")
	}
	mod, _ := ParseModuleStr("module.a.module.b")
	if !mod.Equal(Module{"a", "b"}) || mod.Parent().String() != "module.a" {
		t.Fatalf("got %v", mod)
	}
}

func TestProviderSource(t *testing.T) {
	tests := []struct {
		source, want, display string
	}{
		{"null", "registry.opentofu.org/hashicorp/null", "hashicorp/null"},
		{"hashicorp/null", "registry.opentofu.org/hashicorp/null", "hashicorp/null"},
		{"registry.terraform.io/hashicorp/null", "registry.terraform.io/hashicorp/null", "registry.terraform.io/hashicorp/null"},
		{"Example.COM/Acme/Widget", "example.com/acme/widget", "example.com/acme/widget"},
		{"terraform.io/builtin/terraform", "terraform.io/builtin/terraform", "terraform.io/builtin/terraform"},
	}
	for _, test := range tests {
		got, err := ParseProviderSource(test.source)
		if err != nil {
			t.Fatalf("%s: %s", test.source, err)
		}
		if got.String() != test.want || ProviderForDisplay(got) != test.display {
			t.Fatalf("%s: got %s / %s, want %s / %s", test.source, got, ProviderForDisplay(got), test.want, test.display)
		}
		again, err := ParseProviderSource(got.String())
		if err != nil || again != got {
			t.Fatalf("%s did not round-trip: %v %v", got, again, err)
		}
	}
	for _, bad := range []string{"", "a/b/c/d", "hashicorp/terraform-provider-null", "terraform.io/acme/x", "bad host!/a/b"} {
		if _, err := ParseProviderSource(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
	if !IsDefaultRegistryEquivalent(NewDefaultProvider("null"), MustParseTerraformRegistry("null")) {
		t.Error("registry.terraform.io and registry.opentofu.org providers should be equivalent")
	}
}

func MustParseTerraformRegistry(typeName string) Provider {
	p, _ := ParseProviderSource("registry.terraform.io/hashicorp/" + typeName)
	return p
}

func TestProviderConfigRoundTrip(t *testing.T) {
	for _, str := range []string{
		`provider["registry.opentofu.org/hashicorp/null"]`,
		`provider["registry.terraform.io/hashicorp/null"].alias`,
		`module.a.module.b.provider["example.com/acme/widget"].west`,
	} {
		got, diags := ParseAbsProviderConfigStr(str)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", str, diags.Error())
		}
		if got.String() != str {
			t.Fatalf("%s printed as %s", str, got)
		}
	}
	inst, diags := ParseAbsProviderConfigInstanceStr(`provider["registry.opentofu.org/hashicorp/aws"].by_region["eu-west-1"]`)
	if diags.HasErrors() || inst.Key != StringKey("eu-west-1") || inst.Config.Alias != "by_region" {
		t.Fatalf("got %#v %s", inst, diags.Error())
	}
	if inst.String() != `provider["registry.opentofu.org/hashicorp/aws"].by_region["eu-west-1"]` {
		t.Fatalf("printed as %s", inst)
	}
	for _, bad := range []string{`provider.null`, `provider["null"]["x"]`, `module.a[0].provider["null"]`, `provider["a/b/c/d"]`} {
		if _, diags := ParseAbsProviderConfigStr(bad); !diags.HasErrors() {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func TestParseRef(t *testing.T) {
	tests := []struct {
		str       string
		subject   string
		remaining int
	}{
		{"var.x", "var.x", 0},
		{"var.x.attr[0]", "var.x", 2},
		{"local.x", "local.x", 0},
		{"module.m", "module.m", 0},
		{"module.m.out", "module.m.out", 0},
		{`module.m["a"].out.id`, `module.m["a"].out`, 1},
		{"module.m[0]", "module.m[0]", 0},
		{"count.index", "count.index", 0},
		{"each.key", "each.key", 0},
		{"each.value.name", "each.value", 1},
		{"path.module", "path.module", 0},
		{"terraform.workspace", "terraform.workspace", 0},
		{"tofu.workspace", "tofu.workspace", 0},
		{"self.id", "self", 1},
		{"aws_instance.web", "aws_instance.web", 0},
		{"aws_instance.web[0].id", "aws_instance.web[0]", 1},
		{"aws_instance.web.id", "aws_instance.web", 1},
		{"data.http.page.body", "data.http.page", 1},
		{"resource.template.x", "template.x", 0},
		{"ephemeral.tpf_token.t.value", "ephemeral.tpf_token.t", 1},
		{`ephemeral.tpf_token.t["a"].value`, `ephemeral.tpf_token.t["a"]`, 1},
	}
	for _, test := range tests {
		ref, diags := ParseRefStr(test.str)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", test.str, diags.Error())
		}
		if ref.Subject.String() != test.subject || len(ref.Remaining) != test.remaining {
			t.Fatalf("%s: subject %s with %d remaining, want %s with %d", test.str, ref.Subject, len(ref.Remaining), test.subject, test.remaining)
		}
	}
	for _, bad := range []string{"var", "var[0]", "data.x", "aws_instance", "aws_instance[0]", "template.x", "aws_instance.web[true]", "ephemeral.x", "ephemeral"} {
		if _, diags := ParseRefStr(bad); !diags.HasErrors() {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func TestInstanceKeys(t *testing.T) {
	if _, err := ParseInstanceKey(cty.NumberFloatVal(1.5)); err == nil {
		t.Error("fractional key accepted")
	}
	if _, err := ParseInstanceKey(cty.NumberIntVal(-1)); err == nil {
		t.Error("negative key accepted")
	}
	if _, err := ParseInstanceKey(cty.True); err == nil {
		t.Error("bool key accepted")
	}
	m := MakeMap[AbsResourceInstance, int]()
	a, _ := ParseAbsResourceInstanceStr(`null_resource.n["1"]`)
	b, _ := ParseAbsResourceInstanceStr(`null_resource.n[1]`)
	m.Put(a, 1)
	m.Put(b, 2)
	if m.Len() != 2 || m.Get(a) != 1 || m.Get(b) != 2 {
		t.Fatal("string key \"1\" and int key 1 must be different instances")
	}
	s := MakeSet(a, a, b)
	if len(s) != 2 || !s.Has(a) {
		t.Fatal("set lost or duplicated an element")
	}
}

func TestDeposedKey(t *testing.T) {
	key := NewDeposedKey()
	if parsed, err := ParseDeposedKey(key.String()); err != nil || parsed != key {
		t.Fatalf("%s did not round-trip: %v", key, err)
	}
	for _, bad := range []string{"", "abc", "ABCDEF01", "0123456g"} {
		if _, err := ParseDeposedKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
