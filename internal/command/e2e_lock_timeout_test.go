package command

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// TestE2ELockTimeoutWaitsForAnotherApply runs two applies of the same
// resource at once: while the first is changing it, the second, given
// -lock-timeout, waits instead of leaving the resource out, plans again
// once the first has finished and applies its own change.
func TestE2ELockTimeoutWaitsForAnotherApply(t *testing.T) {
	binary := buildCLI(t)
	p := newE2EProject(t, lifecycleHeader+`
variable "suffix" {
  type    = string
  default = ""
}
variable "fail" {
  type    = string
  default = null
}
resource "tpf_thing" "a" {
  name        = "a"
  description = "a${var.suffix}"
  fail        = var.fail
}
`)
	p.mustRun("apply", "-auto-approve")

	// The first apply holds an intent on tpf_thing.a while its update
	// hangs in the provider.
	first := exec.Command(binary, "apply", "-auto-approve", "-no-color", "-var=suffix=-one", "-var=fail=hang")
	first.Dir = p.dir
	var firstOut, firstErr syncBuffer
	first.Stdout, first.Stderr = &firstOut, &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	firstExited := make(chan error, 1)
	go func() { firstExited <- first.Wait() }()
	t.Cleanup(func() { _ = first.Process.Kill() })
	waitFor(t, "first apply", &firstOut, regexp.MustCompile(`tpf_thing.a: Modifying\.\.\.`))

	second := exec.Command(binary, "apply", "-auto-approve", "-no-color", "-lock-timeout=60s", "-var=suffix=-two")
	second.Dir = p.dir
	var secondOut syncBuffer
	var secondErr bytes.Buffer
	second.Stdout, second.Stderr = &secondOut, &secondErr
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	secondExited := make(chan error, 1)
	go func() { secondExited <- second.Wait() }()
	t.Cleanup(func() { _ = second.Process.Kill() })
	waitFor(t, "second apply", &secondOut, regexp.MustCompile(`Waiting for another run \(tpf_thing\.a is being changed by another run\)`))

	// Ending the first apply releases its claim; the second plans again.
	if err := first.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-firstExited:
	case <-time.After(30 * time.Second):
		t.Fatalf("interrupted first apply did not exit\n%s\n%s", firstOut.String(), firstErr.String())
	}
	select {
	case err := <-secondExited:
		if err != nil {
			t.Fatalf("second apply failed: %v\nstdout:\n%s\nstderr:\n%s", err, secondOut.String(), secondErr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("second apply did not finish\n%s", secondOut.String())
	}
	assertContains(t, "second apply", secondOut.String(), "Apply complete!")
	if got := p.objects("tpf_thing")["a"].attrs["description"]; got != "a-two" {
		t.Errorf("cloud holds description %v after both applies, want the second's a-two", got)
	}
}
