package scale

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// noChanges is what terrane prints for a plan that proposes nothing.
const noChanges = "No changes"

// schemaCheckMaxInstances bounds the sizes at which the schema-cache check
// runs: it logs at trace level, which also makes the provider log every
// call, so at 100k it would cost minutes for a figure that does not depend
// on the state's size.
const schemaCheckMaxInstances = 10000

// providerCallPattern matches the trace line Terrane's plugin client writes
// for every RPC it sends ("provider call: rpc=NAME ...").
var providerCallPattern = regexp.MustCompile(`provider call: rpc=(\w+)`)

// checkSchemaCached runs a no-change plan without refresh on an applied
// project whose provider schema Terrane has already seen (init and the
// earlier runs fetched it) and counts the RPCs it sent. It fails when
// GetProviderSchema went over the wire although the provider announced
// get_provider_schema_optional, and when the log shows no call at all (the
// check would prove nothing). It returns the call counts.
func checkSchemaCached(binary, project string, env []string) (map[string]int, error) {
	logFile, err := os.CreateTemp("", "terrane-scale-trace-*.log")
	if err != nil {
		return nil, err
	}
	logPath := logFile.Name()
	logFile.Close()
	defer os.Remove(logPath)
	vars := append(env[:len(env):len(env)], "TERRANE_LOG=trace", "TERRANE_LOG_PATH="+logPath)
	if _, out, err := runMeasured(binary, project, vars, "plan", "-refresh=false", "-no-color"); err != nil {
		return nil, fmt.Errorf("traced plan in %s: %v\n%s", project, err, tail(out, 4000))
	} else if !strings.Contains(out, noChanges) {
		return nil, fmt.Errorf("traced plan in %s planned changes:\n%s", project, tail(out, 4000))
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		return nil, err
	}
	counts := make(map[string]int)
	for _, m := range providerCallPattern.FindAllSubmatch(log, -1) {
		counts[string(m[1])]++
	}
	if counts["PlanResourceChange"] == 0 {
		return counts, fmt.Errorf("the trace log %s shows no PlanResourceChange: the check cannot see provider calls", filepath.Base(logPath))
	}
	if n := counts["GetProviderSchema"]; n > 0 {
		return counts, fmt.Errorf("a second no-change plan sent GetProviderSchema %d times; the provider allows schema caching, so the cached schema should have served it (calls: %v)", n, counts)
	}
	return counts, nil
}
