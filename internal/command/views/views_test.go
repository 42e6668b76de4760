package views

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/version"
)

// testStreams are streams over buffers, with stdin reading input.
func testStreams(input string) (Streams, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	return Streams{Stdin: strings.NewReader(input), Stdout: &stdout, Stderr: &stderr}, &stdout, &stderr
}

// jsonMessages decodes a stream of one JSON object per line, leaving out
// the version message and each message's time.
func jsonMessages(t *testing.T, raw string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(raw), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("line is not one JSON object: %s\n%s", err, line)
		}
		if msg["type"] == "version" {
			continue
		}
		delete(msg, "@timestamp")
		out = append(out, msg)
	}
	return out
}

func TestOperationHelpPromptIsForPeopleOnly(t *testing.T) {
	streams, _, stderr := testStreams("")
	NewOperation(streams, arguments.View{}).HelpPrompt("plan")
	if got, want := stderr.String(), "\nFor more help on using this command, run:\n  terrane plan -help\n"; got != want {
		t.Fatalf("human help prompt = %q, want %q", got, want)
	}
	streams, stdout, stderr := testStreams("")
	NewOperation(streams, arguments.View{JSON: true}).HelpPrompt("plan")
	if stderr.Len() != 0 {
		t.Fatalf("-json wrote a help prompt: %q", stderr.String())
	}
	if msgs := jsonMessages(t, stdout.String()); len(msgs) != 0 {
		t.Fatalf("-json wrote messages besides the version: %v", msgs)
	}
}

func TestOperationConfirmReadsOneAnswerAtATime(t *testing.T) {
	streams, stdout, _ := testStreams("yes\nno\n")
	out := NewOperation(streams, arguments.View{NoColor: true})
	if !out.Confirm("Do you want to perform these actions?", "Terrane will perform the actions described above.\nOnly 'yes' will be accepted to approve.") {
		t.Fatal("the first answer, yes, was not taken as approval")
	}
	if out.Confirm("Again?", "Only 'yes' will be accepted.") {
		t.Fatal("the second answer, no, was taken as approval")
	}
	want := "\nDo you want to perform these actions?\n" +
		"  Terrane will perform the actions described above.\n" +
		"  Only 'yes' will be accepted to approve.\n\n" +
		"  Enter a value: \n" +
		"\nAgain?\n  Only 'yes' will be accepted.\n\n  Enter a value: \n"
	if got := stdout.String(); got != want {
		t.Fatalf("prompts = %q, want %q", got, want)
	}
}

func TestOperationDiagnosticsAsJSON(t *testing.T) {
	streams, stdout, stderr := testStreams("")
	NewOperation(streams, arguments.View{JSON: true}).Diagnostics(diags.Diagnostics{diags.Errorf("Broken", "It broke.")})
	if stderr.Len() != 0 {
		t.Fatalf("-json wrote to stderr: %q", stderr.String())
	}
	msgs := jsonMessages(t, stdout.String())
	if len(msgs) != 1 || msgs[0]["type"] != "diagnostic" || msgs[0]["@level"] != "error" {
		t.Fatalf("messages = %v, want one error diagnostic", msgs)
	}
}

func TestInitWritesTextAndJSONInto(t *testing.T) {
	streams, stdout, _ := testStreams("")
	var into bytes.Buffer
	v := NewInit(streams, arguments.OutputView{NoColor: true}, false)
	v.AlsoJSON(&into)
	v.Start()
	v.Heading("Initializing modules...", false)
	v.ModuleInstalled(modules.Event{Key: "child", Dir: "child"})
	want := "Initializing modules...\n- child in child\n"
	if got := stdout.String(); got != want {
		t.Fatalf("text = %q, want %q", got, want)
	}
	msgs := jsonMessages(t, into.String())
	if len(msgs) != 2 || msgs[0]["@message"] != "Initializing modules..." || msgs[1]["@message"] != "installing child in child" {
		t.Fatalf("-json-into messages = %v", msgs)
	}
}

func TestInitUnderJSONWritesNoText(t *testing.T) {
	streams, stdout, _ := testStreams("")
	v := NewInit(streams, arguments.OutputView{}, true)
	v.Start()
	v.Progress("Finding latest version of %s...", "hashicorp/null")
	msgs := jsonMessages(t, stdout.String())
	if len(msgs) != 1 || msgs[0]["@message"] != "Finding latest version of hashicorp/null..." {
		t.Fatalf("messages = %v", msgs)
	}
	if !strings.HasPrefix(stdout.String(), "{") {
		t.Fatalf("stdout holds text besides the messages: %q", stdout.String())
	}
}

func TestOutputRawAndMissing(t *testing.T) {
	outputs := map[string]*states.OutputValue{"greeting": {Value: cty.StringVal("hello")}}
	streams, stdout, _ := testStreams("")
	if ds := NewOutput(streams, arguments.View{}, true, false).Outputs(outputs, "greeting"); len(ds) != 0 {
		t.Fatalf("raw output reported %v", ds)
	}
	if got := stdout.String(); got != "hello" {
		t.Fatalf("raw output = %q, want %q", got, "hello")
	}
	streams, _, _ = testStreams("")
	ds := NewOutput(streams, arguments.View{}, false, false).Outputs(outputs, "other")
	if !ds.HasErrors() || ds[0].Summary != `Output "other" not found` {
		t.Fatalf("missing output reported %v", ds)
	}
}

func TestOutputHidesSensitiveValuesInTheList(t *testing.T) {
	outputs := map[string]*states.OutputValue{
		"b": {Value: cty.StringVal("secret"), Sensitive: true},
		"a": {Value: cty.NumberIntVal(1)},
	}
	streams, stdout, _ := testStreams("")
	NewOutput(streams, arguments.View{}, false, false).Outputs(outputs, "")
	if got, want := stdout.String(), "a = 1\nb = <sensitive>\n"; got != want {
		t.Fatalf("outputs = %q, want %q", got, want)
	}
}

func TestWorkspaceList(t *testing.T) {
	streams, stdout, _ := testStreams("")
	NewWorkspace(streams, false).List([]string{"default", "dev"}, "dev", false)
	if got, want := stdout.String(), "  default\n* dev\n\n"; got != want {
		t.Fatalf("list = %q, want %q", got, want)
	}
}

func TestVersionListsLockedProviders(t *testing.T) {
	streams, stdout, _ := testStreams("")
	NewVersion(streams, false).Show("linux_amd64", map[string]string{
		"registry.opentofu.org/hashicorp/null": "3.2.1",
		"example.com/dev/local":                "0.0.0",
	})
	want := "Terrane v" + version.String() + "\non linux_amd64\n" +
		"+ provider example.com/dev/local (unversioned)\n" +
		"+ provider registry.opentofu.org/hashicorp/null v3.2.1\n"
	if got := stdout.String(); got != want {
		t.Fatalf("version = %q, want %q", got, want)
	}
}

func TestProvidersTree(t *testing.T) {
	null := addrs.NewDefaultProvider("null")
	constraints, err := discovery.ParseConstraints("~> 3.0")
	if err != nil {
		t.Fatal(err)
	}
	root := &ProviderTree{
		Providers: map[addrs.Provider]discovery.Constraints{null: constraints},
		Children: map[string]*ProviderTree{
			"child": {Providers: map[addrs.Provider]discovery.Constraints{null: nil}},
		},
	}
	streams, stdout, _ := testStreams("")
	NewProviders(streams, false).Requirements(root)
	want := "\nProviders required by configuration:\n.\n" +
		"├── provider[" + null.String() + "] ~> 3.0\n" +
		"└── module.child\n" +
		"    └── provider[" + null.String() + "]\n\n"
	if got := stdout.String(); got != want {
		t.Fatalf("tree = %q, want %q", got, want)
	}
}
