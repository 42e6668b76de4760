package foreignstate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
)

func TestTakenIn(t *testing.T) {
	file := &statefile.File{Lineage: "L", Serial: 7}
	cases := []struct {
		name string
		ws   *recordstore.Workspace
		want bool
	}{
		{"no workspace record", nil, false},
		{"another lineage", &recordstore.Workspace{Lineage: "other", Serial: 9, TakenInSerial: 7}, false},
		{"taken in at this serial", &recordstore.Workspace{Lineage: "L", Serial: 12, TakenInSerial: 7}, true},
		{"taken in at a later serial", &recordstore.Workspace{Lineage: "L", Serial: 12, TakenInSerial: 8}, true},
		{"changed by another tool since", &recordstore.Workspace{Lineage: "L", Serial: 40, TakenInSerial: 6}, false},
		{"pushed before the serial taken in was recorded", &recordstore.Workspace{Lineage: "L", Serial: 8}, true},
		{"recorded at a lower serial, nothing taken in", &recordstore.Workspace{Lineage: "L", Serial: 7}, false},
	}
	for _, tc := range cases {
		if got := TakenIn(tc.ws, file); got != tc.want {
			t.Errorf("%s: TakenIn = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestLocateAndFind(t *testing.T) {
	dir := t.TempDir()
	parse := func(backendType, body string) *config.Backend {
		f, diags := hclsyntax.ParseConfig([]byte(body), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return &config.Backend{Type: backendType, Config: f.Body}
	}
	state := `{"version": 4, "serial": 3, "lineage": "L", "outputs": {"x": {"value": "1", "type": "string"}}, "resources": []}`
	write := func(path, content string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "custom.tfstate"), state)
	write(filepath.Join(dir, "wsdir", "blue", "terraform.tfstate"), state)
	write(filepath.Join(dir, "wsdir", "empty", "terraform.tfstate"), "")

	loc, ds := Locate(dir, parse("local", "path = \"custom.tfstate\"\nworkspace_dir = \"wsdir\""), nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	sources, err := Find(t.Context(), dir, loc)
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) != 2 || sources[0].Workspace != "default" || sources[1].Workspace != "blue" {
		t.Fatalf("found %+v, want default and blue (the emptied file is no state)", sources)
	}
	if _, ds := Locate(dir, parse("local", `bucket = "b"`), nil); !ds.HasErrors() {
		t.Error("an argument the local backend does not have must be reported")
	}
	if loc, _ := Locate(dir, parse("s3", `bucket = "b"`), nil); loc.Kind != "local" || loc.StatePath(dir, "default") != filepath.Join(dir, "terraform.tfstate") {
		t.Errorf("another backend type: a stray terraform.tfstate is still looked for, got %+v", loc)
	}
	if _, ds := Locate(dir, parse("http", `lock_address = "x"`), nil); !ds.HasErrors() {
		t.Error("an http backend without an address must be reported")
	}
	if loc, ds := Locate(dir, parse("http", ""), []string{"TF_HTTP_ADDRESS=https://state.example.com/x"}); ds.HasErrors() || loc.HTTP.Address != "https://state.example.com/x" {
		t.Errorf("TF_HTTP_ADDRESS: %+v %v", loc.HTTP, ds)
	}
}
