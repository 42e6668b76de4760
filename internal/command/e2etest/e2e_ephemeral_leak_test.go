package e2etest

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// ephemeralLeakConfig uses ephemeral values in every place they may go:
// an ephemeral variable and an ephemeral resource, combined in a local,
// passed through a child module's ephemeral variable and output, checked
// by preconditions and a check block, given to write-only attributes, and
// kept out of a root output by ephemeralasnull. Nothing in it spells the
// values the test looks for.
const ephemeralLeakConfig = lifecycleHeader + `
variable "db_password" {
  type      = string
  ephemeral = true
}

ephemeral "tpf_token" "session" {
  name = "leaky"
  lifecycle {
    precondition {
      condition     = length(var.db_password) > 3
      error_message = "too short: ${var.db_password}"
    }
  }
}

locals {
  connection = "${ephemeral.tpf_token.session.value}|${var.db_password}"
}

module "wrap" {
  source = "./wrap"
  secret = local.connection
}

resource "tpf_thing" "db" {
  name                = "db"
  password_wo         = module.wrap.wrapped
  password_wo_version = 1
}

resource "tpf_thing" "plain" {
  name                = "plain"
  description         = "not secret"
  password_wo         = "PLAIN-WRITE-ONLY-5e1"
  password_wo_version = 1
}

check "session" {
  assert {
    condition     = startswith(local.connection, "token-")
    error_message = "unexpected session ${local.connection}"
  }
}

output "summary" {
  value     = ephemeralasnull({ connection = local.connection, db = tpf_thing.db.name })
  sensitive = true
}
`

const ephemeralLeakModule = `
variable "secret" {
  type      = string
  ephemeral = true
}

output "wrapped" {
  value     = "[${var.secret}]"
  ephemeral = true
}
`

// ephemeralMarkers are the values that must appear in no artefact: the
// ephemeral variable's value and the prefix of the token the ephemeral
// resource hands out ("token-<name>-<lease>"). The literal write-only
// value is in the configuration (and so in the plan's copy of it) but
// must not be in a record, a log or an output stream.
const (
	ephemeralVarMarker   = "EPHEMERAL-PW-8c21d"
	ephemeralTokenMarker = "token-leaky-"
	writeOnlyMarker      = "PLAIN-WRITE-ONLY-5e1"
)

// TestEphemeralValuesNeverWritten takes a configuration full of ephemeral
// values through init, plan -out, apply of the saved plan, show, output,
// a plan with nothing to do, refresh and destroy, with trace logging on,
// -json streams, and `terrane watch` following the records, then looks
// for the values in everything the runs left: the working directory (the
// SQLite store and its journal included), the plan file's contents, every
// stdout and stderr, the log and the watch streams. The values must have
// reached the provider (its cloud files hold the write-only values) and
// every ephemeral resource instance opened must have been closed.
func TestEphemeralValuesNeverWritten(t *testing.T) {
	t.Parallel()
	p := newE2EProjectFiles(t, map[string]string{"main.tf": ephemeralLeakConfig, "wrap/main.tf": ephemeralLeakModule})
	p.mustRun("init")
	logPath := filepath.Join(t.TempDir(), "trace.log")
	p.setenv("TERRANE_LOG", "trace")
	p.setenv("TERRANE_LOG_PATH", logPath)

	// streams are what each command printed, by command line with the
	// variable's value left out (it is on the command line, not an
	// output); writeOnlyFree are the artefacts where not even the
	// configuration's literal write-only value may appear.
	streams := map[string]string{}
	writeOnlyFree := map[string]bool{}
	run := func(args ...string) string {
		t.Helper()
		cmd := p.command(args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("terrane %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errOut.String())
		}
		name := "the output of terrane " + strings.ReplaceAll(strings.Join(args, " "), ephemeralVarMarker, "…")
		streams[name] = out.String() + errOut.String()
		// A plan's JSON shows the configuration, literal included.
		writeOnlyFree[name] = !(args[0] == "show" && len(args) == 3)
		if leases := p.objects("tpf_token"); len(leases) > 0 {
			t.Errorf("terrane %s left ephemeral resources open: %v", strings.Join(args, " "), sortedNames(leases))
		}
		return out.String()
	}
	passwordVar := "db_password=" + ephemeralVarMarker
	watchInstances := startWatch(t, p, "-json")
	watchOutputs := startWatch(t, p, "-json", "-type", "Output")
	run("plan", "-no-color", "-out=ephemeral.tfplan", "-var", passwordVar)
	run("show", "-json", "ephemeral.tfplan")
	run("show", "-no-color", "ephemeral.tfplan")
	apply := run("apply", "-json", "-var", passwordVar, "ephemeral.tfplan")
	clitest.AssertContains(t, "apply -json", apply, `"type":"ephemeral_op_start"`, `"type":"ephemeral_op_complete"`, `"action":"close"`)
	// The values reached the provider: it keeps write-only values in its
	// cloud files (and only there).
	cloud := p.objects("tpf_thing")
	if got, _ := cloud["db"].attrs["password_wo"].(string); !strings.HasPrefix(got, "["+ephemeralTokenMarker) || !strings.HasSuffix(got, "|"+ephemeralVarMarker+"]") {
		t.Errorf("the provider got password_wo %q for db", got)
	}
	if got := cloud["plain"].attrs["password_wo"]; got != writeOnlyMarker {
		t.Errorf("the provider got password_wo %v for plain", got)
	}
	run("show", "-json")
	run("show", "-no-color")
	run("output", "-json")
	run("state", "pull")
	run("plan", "-json", "-var", passwordVar)
	run("refresh", "-no-color", "-var", passwordVar)
	run("destroy", "-auto-approve", "-json", "-var", passwordVar)

	if written := p.objects("tpf_thing"); len(written) != 0 {
		t.Errorf("destroy left objects: %v", sortedNames(written))
	}
	watched := watchInstances()
	clitest.AssertContains(t, "watch", watched, "tpf_thing.db", "tpf_thing.plain")
	streams["the watch of instances"], streams["the watch of outputs"] = watched, watchOutputs()
	writeOnlyFree["the watch of instances"], writeOnlyFree["the watch of outputs"] = true, true
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(log, []byte("[TRACE]")) {
		t.Fatalf("the log has no trace entries:\n%.2000s", log)
	}
	artefacts := map[string][]byte{"the trace log": log}
	writeOnlyFree["the trace log"] = true
	for name, out := range streams {
		artefacts[name] = []byte(out)
	}
	for name, content := range directoryArtefacts(t, p.dir) {
		artefacts[name] = content
		writeOnlyFree[name] = !strings.HasPrefix(name, "the configuration")
	}
	for name, content := range artefacts {
		for _, marker := range []string{ephemeralVarMarker, ephemeralTokenMarker} {
			if i := bytes.Index(content, []byte(marker)); i >= 0 {
				t.Errorf("%s holds the ephemeral value %q: …%s…", name, marker, excerpt(content, i))
			}
		}
		if i := bytes.Index(content, []byte(writeOnlyMarker)); i >= 0 && writeOnlyFree[name] {
			t.Errorf("%s holds the write-only value %q: …%s…", name, writeOnlyMarker, excerpt(content, i))
		}
	}
}

// directoryArtefacts reads every file under dir, and the entries of every
// zip archive (plan files) separately, since their content is compressed.
// Configuration files, which hold the write-only literal, are named as
// such.
func directoryArtefacts(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(path, filepath.Join(".terrane", "providers")) {
			return nil // the provider binaries
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if strings.HasSuffix(path, ".tf") {
			out["the configuration "+rel] = content
			return nil
		}
		out[rel] = content
		if zr, err := zip.NewReader(bytes.NewReader(content), int64(len(content))); err == nil {
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					return err
				}
				entry, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					return err
				}
				name := rel + "!" + f.Name
				if strings.HasSuffix(f.Name, ".tf") {
					name = "the configuration in " + name
				}
				out[name] = entry
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 3 {
		t.Fatalf("found only %d files in %s", len(out), dir)
	}
	return out
}

func excerpt(content []byte, at int) string {
	start, end := max(0, at-80), min(len(content), at+80)
	return string(content[start:end])
}

// startWatch runs `terrane watch` with args in dir until the test calls
// the returned function, which stops it and returns what it printed.
func startWatch(t *testing.T, p *e2eProject, args ...string) func() string {
	t.Helper()
	cmd := p.command(append([]string{"watch"}, args...)...)
	var out clitest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stopped := false
	stop := func() string {
		if !stopped {
			stopped = true
			_ = cmd.Process.Signal(os.Interrupt)
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		}
		return out.String()
	}
	t.Cleanup(func() { stop() })
	return stop
}
