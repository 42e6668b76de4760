package ui

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
)

// lockedBuffer lets the test read what the hook wrote while it may still
// be writing.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func instance(t *testing.T, addr string) addrs.AbsResourceInstance {
	t.Helper()
	parsed, diags := addrs.ParseAbsResourceInstanceStr(addr)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return parsed
}

func objectWithID(id string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "name": cty.StringVal("x")})
}

func TestProgressHookLines(t *testing.T) {
	unknownID := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "name": cty.StringVal("x")})
	for _, tc := range []struct {
		name               string
		action             plans.Action
		prior, planned     cty.Value
		newState           cty.Value
		err                error
		deposed            addrs.DeposedKey
		wantStart, wantEnd string
	}{
		{"create", plans.Create, cty.NullVal(unknownID.Type()), unknownID, objectWithID("i-1"), nil, "",
			"tpf_thing.a: Creating...", "tpf_thing.a: Creation complete after 0s [id=i-1]"},
		{"update", plans.Update, objectWithID("i-1"), objectWithID("i-1"), objectWithID("i-1"), nil, "",
			"tpf_thing.a: Modifying... [id=i-1]", "tpf_thing.a: Modifications complete after 0s [id=i-1]"},
		{"delete", plans.Delete, objectWithID("i-1"), cty.NullVal(unknownID.Type()), cty.NullVal(unknownID.Type()), nil, "",
			"tpf_thing.a: Destroying... [id=i-1]", "tpf_thing.a: Destruction complete after 0s"},
		{"deposed delete", plans.Delete, objectWithID("i-0"), cty.NullVal(unknownID.Type()), cty.NullVal(unknownID.Type()), nil, "00000001",
			"tpf_thing.a (deposed object 00000001): Destroying... [id=i-0]", "tpf_thing.a: Destruction complete after 0s"},
		{"replace, destroying half", plans.DeleteThenCreate, objectWithID("i-1"), cty.NullVal(unknownID.Type()), cty.NullVal(unknownID.Type()), nil, "",
			"tpf_thing.a: Destroying... [id=i-1]", "tpf_thing.a: Destruction complete after 0s"},
		{"create fails", plans.Create, cty.NullVal(unknownID.Type()), unknownID, cty.NullVal(unknownID.Type()), errors.New("boom"), "",
			"tpf_thing.a: Creating...", ""},
		{"sensitive id", plans.Update, cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("secret").Mark(marks.Sensitive)}), unknownID, objectWithID("i-1"), nil, "",
			"tpf_thing.a: Modifying...", "tpf_thing.a: Modifications complete after 0s [id=i-1]"},
		{"named by name", plans.Update, cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n1")}), unknownID, cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n1")}), nil, "",
			"tpf_thing.a: Modifying... [name=n1]", "tpf_thing.a: Modifications complete after 0s [name=n1]"},
		{"named by a tag before the change only", plans.Delete, cty.ObjectVal(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("web")})}), cty.NullVal(unknownID.Type()), cty.NullVal(unknownID.Type()), nil, "",
			"tpf_thing.a: Destroying... [tags.Name=web]", "tpf_thing.a: Destruction complete after 0s"},
		{"null id, so named by name", plans.Update, cty.ObjectVal(map[string]cty.Value{"id": cty.NullVal(cty.String), "name": cty.StringVal("x")}), unknownID, objectWithID("i-1"), nil, "",
			"tpf_thing.a: Modifying... [name=x]", "tpf_thing.a: Modifications complete after 0s [id=i-1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out lockedBuffer
			hook := NewProgressHook(&out, ProgressOptions{})
			addr := instance(t, "tpf_thing.a")
			hook.PreApply(addr, tc.deposed, tc.action, tc.prior, tc.planned)
			hook.PostApply(addr, tc.deposed, tc.newState, tc.err)
			hook.Close()
			want := tc.wantStart + "\n"
			if tc.wantEnd != "" {
				want += tc.wantEnd + "\n"
			}
			if got := out.String(); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestProgressHookRefreshing(t *testing.T) {
	var out lockedBuffer
	hook := NewProgressHook(&out, ProgressOptions{})
	hook.PreRefresh(instance(t, `tpf_thing.b["k"]`), addrs.NotDeposed, objectWithID("i-9"))
	hook.PostRefresh(instance(t, `tpf_thing.b["k"]`), addrs.NotDeposed, objectWithID("i-9"), objectWithID("i-9"))
	if got, want := out.String(), "tpf_thing.b[\"k\"]: Refreshing state... [id=i-9]\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestProgressHookReportsLongOperationsUntilTheyEnd(t *testing.T) {
	var out lockedBuffer
	hook := NewProgressHook(&out, ProgressOptions{StillInterval: 20 * time.Millisecond})
	addr := instance(t, "tpf_thing.slow")
	hook.PreApply(addr, addrs.NotDeposed, plans.Update, objectWithID("i-1"), objectWithID("i-1"))
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "Still modifying") < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	hook.PostApply(addr, addrs.NotDeposed, objectWithID("i-1"), nil)
	afterEnd := out.String()
	time.Sleep(60 * time.Millisecond)
	hook.Close()

	if n := strings.Count(afterEnd, "tpf_thing.slow: Still modifying... [id=i-1, 0s elapsed]\n"); n < 2 {
		t.Errorf("want at least two still-modifying lines, got:\n%s", afterEnd)
	}
	if !strings.HasSuffix(afterEnd, "tpf_thing.slow: Modifications complete after 0s [id=i-1]\n") {
		t.Errorf("the last line should report completion:\n%s", afterEnd)
	}
	if got := out.String(); got != afterEnd {
		t.Errorf("lines written after the operation ended:\n%s", strings.TrimPrefix(got, afterEnd))
	}
}

func TestProgressHookWritesWholeLinesFromManyGoroutines(t *testing.T) {
	var out lockedBuffer
	hook := NewProgressHook(&out, ProgressOptions{StillInterval: time.Millisecond})
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			addr := instance(t, fmt.Sprintf("tpf_thing.n[%d]", i))
			hook.PreApply(addr, addrs.NotDeposed, plans.Create, cty.NullVal(objectWithID("").Type()), objectWithID("x"))
			time.Sleep(3 * time.Millisecond)
			hook.PostApply(addr, addrs.NotDeposed, objectWithID(fmt.Sprint("i-", i)), nil)
		}()
	}
	wg.Wait()
	hook.Close()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	completed := 0
	for _, line := range lines {
		if !strings.HasPrefix(line, "tpf_thing.n[") {
			t.Fatalf("line %q does not start with an address: lines were interleaved", line)
		}
		if strings.Contains(line, "Creation complete") {
			completed++
		}
	}
	if completed != 50 {
		t.Errorf("%d completion lines, want 50", completed)
	}
}

func TestProgressHookColour(t *testing.T) {
	var out lockedBuffer
	hook := NewProgressHook(&out, ProgressOptions{Color: true})
	addr := instance(t, "tpf_thing.a")
	hook.PreApply(addr, addrs.NotDeposed, plans.Create, cty.NullVal(objectWithID("").Type()), objectWithID("x"))
	hook.PostApply(addr, addrs.NotDeposed, objectWithID("i-1"), nil)
	want := "\x1b[1mtpf_thing.a: Creating...\x1b[0m\n\x1b[1mtpf_thing.a: Creation complete after 0s [id=i-1]\x1b[0m\n"
	if got := out.String(); got != want {
		t.Errorf("want whole lines in bold, id included, got %q", got)
	}
}

func TestRenderApplySummary(t *testing.T) {
	outputs := []OutputValue{
		{Name: "s", Value: cty.StringVal("secret"), Sensitive: true},
		{Name: "obj", Value: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.StringVal("two")})},
		{Name: "o", Value: cty.StringVal("hello")},
		{Name: "gone", Value: cty.StringVal("bye")},
		{Name: "unset", Value: cty.NullVal(cty.String)},
		{Name: "marked", Value: cty.StringVal("pw").Mark(marks.Sensitive)},
	}
	for _, tc := range []struct {
		name    string
		summary ApplySummary
		want    string
	}{
		// A null output in state (one an apply could not know) is listed,
		// as OpenTofu lists it.
		{"apply with outputs, as opentofu prints it", ApplySummary{Added: 9, Outputs: outputs},
			"\nApply complete! Resources: 9 added, 0 changed, 0 destroyed.\n\nOutputs:\n\ngone = \"bye\"\nmarked = <sensitive>\no = \"hello\"\nobj = {\n  \"a\" = 1\n  \"b\" = \"two\"\n}\ns = <sensitive>\nunset = tostring(null)\n"},
		{"apply without outputs", ApplySummary{Added: 1, Changed: 5, Destroyed: 3},
			"\nApply complete! Resources: 1 added, 5 changed, 3 destroyed.\n"},
		{"imports and forgets", ApplySummary{Imported: 2, Forgotten: 1},
			"\nApply complete! Resources: 2 imported, 0 added, 0 changed, 0 destroyed, 1 forgotten.\n"},
		{"destroy", ApplySummary{Destroy: true, Destroyed: 7, Outputs: outputs},
			"\nDestroy complete! Resources: 7 destroyed.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := RenderApplySummary(&out, tc.summary, false); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out.String(), tc.want)
			}
		})
	}
}

func TestProgressHookImports(t *testing.T) {
	var out lockedBuffer
	hook := NewProgressHook(&out, ProgressOptions{})
	addr := instance(t, "tpf_thing.a")
	hook.PreImport(addr, "i-1", false)
	hook.PreApplyImport(addr, "i-1")
	hook.PostApplyImport(addr, "i-1")
	want := "tpf_thing.a: Preparing import... [id=i-1]\ntpf_thing.a: Importing... [id=i-1]\ntpf_thing.a: Import complete [id=i-1]\n"
	if got := out.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// ProgressHook must keep satisfying the engine's hook interfaces.
var (
	_ engine.Hook       = (*ProgressHook)(nil)
	_ engine.ImportHook = (*ProgressHook)(nil)
)
