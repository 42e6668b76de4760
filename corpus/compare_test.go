package corpus

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// compareCase reports every difference between OpenTofu's observations
// (want, as recorded: its directories already replaced) and Terrane's
// (got, from the side terrane).
func compareCase(t *testing.T, c *caseFile, terrane *side, want, got []observation) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("the sides observed %d and %d results; the runner is broken", len(want), len(got))
	}
	wantNorm, gotNorm := recordedNormalizer, newNormalizer(terrane)
	used := map[int]bool{}
	kept := func(o observation, stream string) (keep, int, bool) {
		if !o.main {
			return keep{}, 0, false
		}
		for i, k := range c.keeps {
			if k.step == o.tfStep && k.stream == stream {
				return k, i, true
			}
		}
		return keep{}, 0, false
	}
	verbose := os.Getenv("CORPUS_VERBOSE") != ""
	for i := range want {
		w, g := want[i], got[i]
		if w.failure != "" || g.failure != "" {
			if w.failure != g.failure {
				t.Errorf("%s: tofu: %s; terrane: %s", w.label, orNone(w.failure), orNone(g.failure))
			}
			continue
		}
		var problems []string
		if w.code != g.code {
			if k, ki, ok := kept(w, "code"); ok {
				used[ki] = true
				t.Logf("%s: exit codes differ, kept: %s", w.label, k.reason)
			} else {
				problems = append(problems, fmt.Sprintf("tofu exits %d, terrane %d", w.code, g.code))
			}
		} else if _, ki, ok := kept(w, "code"); ok {
			t.Errorf("%s: both exit %d, so the keep at line %d is no longer needed", w.label, w.code, c.keeps[ki].line)
		}
		for _, stream := range []struct {
			name      string
			want, got string
			asJSON    bool
		}{
			{"stdout", w.stdout, g.stdout, w.asJSON},
			{"stderr", w.stderr, g.stderr, false},
		} {
			var same bool
			var diff string
			if stream.asJSON {
				same, diff = compareJSON(wantNorm, gotNorm, stream.want, stream.got)
			} else {
				same, diff = compareText(wantNorm.text(stream.want), gotNorm.text(stream.got))
			}
			k, ki, isKept := kept(w, stream.name)
			switch {
			case same && isKept:
				t.Errorf("%s: %s is the same, so the keep at line %d is no longer needed", w.label, stream.name, k.line)
			case isKept:
				used[ki] = true
				t.Logf("%s: %s differs, kept: %s", w.label, stream.name, k.reason)
			case !same:
				problems = append(problems, fmt.Sprintf("%s differs (-tofu +terrane):\n%s", stream.name, diff))
			}
		}
		if len(problems) > 0 {
			msg := w.label + ": " + strings.Join(problems, "\n")
			if verbose || w.code != g.code {
				msg += fmt.Sprintf("\n--- tofu stdout:\n%s\n--- tofu stderr:\n%s\n--- terrane stdout:\n%s\n--- terrane stderr:\n%s",
					w.stdout, w.stderr, g.stdout, g.stderr)
			}
			t.Error(msg)
		}
	}
	for i, k := range c.keeps {
		if !used[i] && !t.Failed() {
			t.Errorf("line %d: keep of step %d's %s matched no difference", k.line, k.step, k.stream)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "no failure"
	}
	return s
}

// A normalizer rewrites one side's output so that only what is random or
// version-specific by nature differs from the other side's: its own
// directories, IDs, timestamps, durations and the product's name.
type normalizer struct {
	replacer *strings.Replacer
}

func newNormalizer(s *side) normalizer {
	pairs := []string{s.dir, "$DIR", s.home, "$HOME", s.cloud, "$CLOUD"}
	if mirrorPaths.oracle != "" && mirrorPaths.providers != "" {
		pairs = append(pairs, mirrorPaths.oracle, "$ORACLE_MIRROR", mirrorPaths.providers, "$PROVIDER_MIRROR")
	}
	return normalizer{replacer: strings.NewReplacer(pairs...)}
}

// recordedNormalizer normalises observations as recorded: their paths
// are placeholders already.
var recordedNormalizer = normalizer{replacer: strings.NewReplacer()}

// mirrorPaths are the two provider mirrors both sides share, which an
// error naming the places it searched for a provider prints: they differ
// from machine to machine, so recordings hold placeholders for them.
var mirrorPaths struct {
	oracle, providers string
}

var (
	uuidPattern      = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	hexIDPattern     = regexp.MustCompile(`\b[0-9a-f]{16}\b`)
	timestampPattern = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
	// elapsedPattern is a -json hook's duration, in whole seconds.
	elapsedPattern  = regexp.MustCompile(`"elapsed_seconds":\s*\d+`)
	durationPattern = regexp.MustCompile(`\b(after )(\d+h)?(\d+m)?\d+(\.\d+)?(ms|s)\b`)
	productPattern  = regexp.MustCompile(`\b(OpenTofu|Terrane)\b`)
	commandPattern  = regexp.MustCompile("(?m)(^|[\\s\"'`(⟩])(tofu|terrane)([\\s\"'`).,:;]|$)")
	dataDirPattern  = regexp.MustCompile(`\.terrane\b`)
	// versionLinePattern matches the first line of the version command's
	// output, which names the program's own version.
	versionLinePattern = regexp.MustCompile(`(?m)^<product> v\d+\.\d+\.\d+\S*$`)
	stillPattern       = regexp.MustCompile(`(?m)^.*: Still [a-z]+\.\.\. \[.*elapsed\]\n`)
	// OpenTofu says it is waiting for the state lock when taking or
	// releasing it takes longer than 400ms: on a busy machine, at random.
	slowLockPattern = regexp.MustCompile(`(?m)^((Acquiring|Releasing) state lock\. This may take a few moments\.\.\.|.*"type":"state_lock_(acquire|release)".*)\n`)
	// OpenTofu checks required_providers entries in Go map order, so which
	// of two local names for one provider its warning calls the duplicate
	// (and where it points) varies from run to run.
	duplicateProviderPattern = regexp.MustCompile(`(Duplicate required provider)(?s:.{0,600}?)previously(?s:.{0,60}?)required as(?s:.{0,300}?)required_providers\.`)
	// A deposed object's key is chosen at random when it is deposed.
	deposedPattern = regexp.MustCompile(`(deposed object |"deposed(?:_key)?": ?")[0-9a-f]{8}\b`)
	// progressPattern matches the lines that report one object's progress:
	// objects are worked on in parallel, so a run of them comes in an
	// order that varies from run to run in both programs.
	progressPattern = regexp.MustCompile(`^\S.*?: (Creating\.\.\.|Creation complete|Destroying\.\.\.|Destruction complete|Modifying\.\.\.|` +
		`Modifications complete|Refreshing state\.\.\.|Reading\.\.\.|Read complete|Preparing import\.\.\.|Importing\.\.\.|` +
		`Import complete|Opening\.\.\.|Open complete|Closing\.\.\.|Close complete|Renewing\.\.\.|Renew complete|Provisioning with)`)
	// initProgressPattern matches init's lines about provider packages,
	// which OpenTofu looks up and installs in parallel.
	initProgressPattern = regexp.MustCompile(`^- ` + initProgressMessage)
	initMessagePattern  = regexp.MustCompile(`"@message":"` + initProgressMessage)
	// testModulePattern matches init's lines about the modules of test
	// files' run blocks, which OpenTofu installs going through the test
	// files in Go map order.
	testModulePattern        = regexp.MustCompile(`^- test\.\S+ in `)
	testModuleMessagePattern = regexp.MustCompile(`"@message":"test\.\S+ in `)
	provisionerPattern       = regexp.MustCompile(`^\S.*? \((local-exec|remote-exec|file)\): `)
	versionField             = regexp.MustCompile(`"terraform_version": "[^"]*"`)
	serialField              = regexp.MustCompile(`"serial": \d+`)
)

const initProgressMessage = `(Finding .* versions matching .*\.\.\.|Finding latest version of .*\.\.\.|` +
	`Reusing previous version of .* from the dependency lock file|Installing .* v\S+\.\.\.|Installed .* v\S+ \(|` +
	`Using previously-installed .* v\S+$|Using .* v\S+ from the shared cache directory|Detected previously-installed |` +
	`Fetching \S+ \S+ for \S+\.\.\.$|Retrieved \S+ \S+ for \S+ \(|Obtained \S+ checksums for )`

// text normalises a command's output.
func (n normalizer) text(s string) string {
	s = canonicalANSI(s)
	s = n.replacer.Replace(s)
	s = decodePrivate(s)
	s = stillPattern.ReplaceAllString(s, "")
	s = slowLockPattern.ReplaceAllString(s, "")
	s = uuidPattern.ReplaceAllString(s, "<uuid>")
	s = hexIDPattern.ReplaceAllString(s, "<id>")
	s = deposedPattern.ReplaceAllString(s, "${1}<deposed>")
	s = duplicateProviderPattern.ReplaceAllString(s, "${1}: one provider under two local names")
	s = timestampPattern.ReplaceAllString(s, "<timestamp>")
	s = durationPattern.ReplaceAllString(s, "${1}<duration>")
	s = elapsedPattern.ReplaceAllString(s, `"elapsed_seconds":0`)
	s = productPattern.ReplaceAllString(s, "<product>")
	s = commandPattern.ReplaceAllString(s, "$1<cmd>$3")
	s = versionLinePattern.ReplaceAllString(s, "<product> v<version>")
	s = dataDirPattern.ReplaceAllString(s, ".terraform")
	s = sortCycleNames(s)
	if stream, ok := jsonLines(s); ok {
		return stream
	}
	if doc, ok := validateDocument(s); ok {
		return doc
	}
	return sortProgressRuns(sortProvidersTree(s))
}

// cyclePattern is OpenTofu's error for a dependency cycle, which names
// the objects in the order its graph search met them: an order that
// varies from run to run.
var cyclePattern = regexp.MustCompile(`(?m)(Error: (?:⟨[^⟩]*⟩)?Cycle: )(.+)$`)

// sortCycleNames sorts the names in each cycle error. A name may hold ", "
// in parentheses ("var.n (expand, reference)"): only commas outside them
// separate names.
func sortCycleNames(s string) string {
	return cyclePattern.ReplaceAllStringFunc(s, func(line string) string {
		m := cyclePattern.FindStringSubmatch(line)
		var names []string
		depth, start := 0, 0
		list := m[2]
		for i, r := range list {
			switch {
			case r == '(':
				depth++
			case r == ')':
				depth--
			case r == ',' && depth == 0 && strings.HasPrefix(list[i:], ", "):
				names = append(names, list[start:i])
				start = i + 2
			}
		}
		names = append(names, list[start:])
		slices.Sort(names)
		return m[1] + strings.Join(names, ", ")
	})
}

// validateDocument sorts the diagnostics of a `validate -json` document:
// OpenTofu's validate walk visits the configuration's objects in parallel
// and gathers what each reports in an order that varies from run to run.
func validateDocument(s string) (string, bool) {
	var doc map[string]any
	decoder := json.NewDecoder(strings.NewReader(s))
	decoder.UseNumber()
	if decoder.Decode(&doc) != nil || decoder.More() {
		return "", false
	}
	list, ok := doc["diagnostics"].([]any)
	if _, valid := doc["valid"]; !ok || !valid {
		return "", false
	}
	keyed := make([]string, len(list))
	byKey := map[string]any{}
	for i, d := range list {
		encoded, _ := json.Marshal(d)
		keyed[i] = string(encoded)
		byKey[keyed[i]] = d
	}
	sort.Strings(keyed)
	for i, key := range keyed {
		list[i] = byKey[key]
	}
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	encoder.SetIndent("", "  ")
	if encoder.Encode(doc) != nil {
		return "", false
	}
	return out.String(), true
}

// privateField matches an instance's private data in a state file; base64
// matches a string that may be base64 nested inside it.
var (
	privateField  = regexp.MustCompile(`"private": ?"([A-Za-z0-9+/]*={0,2})"`)
	base64Literal = regexp.MustCompile(`"([A-Za-z0-9+/]{16,}={0,2})"`)
)

// decodePrivate writes private data out decoded: providers keep their
// objects' random IDs in it, base64-encoded (the test providers nest a
// second layer), where the ID patterns cannot see them.
func decodePrivate(s string) string {
	return privateField.ReplaceAllStringFunc(s, func(field string) string {
		encoded := privateField.FindStringSubmatch(field)[1]
		decoded, ok := decodeBase64Text(encoded)
		if !ok {
			return field
		}
		decoded = base64Literal.ReplaceAllStringFunc(decoded, func(lit string) string {
			if inner, ok := decodeBase64Text(lit[1 : len(lit)-1]); ok {
				return strconv.Quote("base64:" + inner)
			}
			return lit
		})
		return `"private": ` + strconv.Quote("base64:"+decoded)
	})
}

// decodeBase64Text decodes s when it is base64 of printable text.
func decodeBase64Text(s string) (string, bool) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || !utf8.Valid(raw) {
		return "", false
	}
	for _, r := range string(raw) {
		if !unicode.IsPrint(r) && r != '\n' && r != '\t' {
			return "", false
		}
	}
	return string(raw), true
}

// sortProgressRuns sorts each run of consecutive progress lines.
func sortProgressRuns(s string) string {
	lines := strings.Split(s, "\n")
	isProgress := func(line string) bool {
		return progressPattern.MatchString(line) || provisionerPattern.MatchString(line)
	}
	sortRuns(lines, initProgressPattern.MatchString)
	sortRuns(lines, testModulePattern.MatchString)
	sortRuns(lines, isProgress)
	return strings.Join(lines, "\n")
}

func sortRuns(lines []string, inRun func(string) bool) {
	for i := 0; i < len(lines); {
		if !inRun(lines[i]) {
			i++
			continue
		}
		j := i
		for j < len(lines) && inRun(lines[j]) {
			j++
		}
		sort.Strings(lines[i:j])
		i = j
	}
}

// jsonLines normalises a -json stream: one JSON object per line. The
// timestamps go, and runs of progress messages are sorted, as in text.
func jsonLines(s string) (string, bool) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return "", false
	}
	out := make([]string, len(lines))
	for i, line := range lines {
		var message map[string]any
		decoder := json.NewDecoder(strings.NewReader(line))
		decoder.UseNumber()
		// A stream begins with a message; a later line may be a JSON
		// document a command prints among its messages (state show -json).
		if decoder.Decode(&message) != nil || (i == 0 && message["@level"] == nil) {
			return "", false
		}
		delete(message, "@timestamp")
		if message["type"] == "version" {
			// The first message names the program and its version; both
			// programs give OpenTofu's version under its name.
			message["@message"] = "<product> <version>"
			delete(message, "<cmd>")
		}
		// A test's -verbose messages carry a state or plan document, whose
		// terraform_version names the program's version.
		for _, key := range []string{"test_state", "test_plan"} {
			if doc, ok := message[key].(map[string]any); ok && doc["terraform_version"] != nil {
				doc["terraform_version"] = "<version>"
			}
		}
		encoded, err := json.Marshal(message)
		if err != nil {
			return "", false
		}
		out[i] = string(encoded)
	}
	sortRuns(out, func(line string) bool {
		if (initMessagePattern.MatchString(line) || testModuleMessagePattern.MatchString(line)) && !strings.Contains(line, `"type":`) {
			return true
		}
		// A plan lists its changes in the order its walk planned them,
		// which varies from run to run as objects are planned in parallel.
		if strings.Contains(line, `"type":"planned_change"`) || strings.Contains(line, `"type":"resource_drift"`) {
			return true
		}
		// The warnings a walk gathers (check blocks' among them) come in
		// the order its parallel work met them: OpenTofu's -json view
		// does not sort them as its text view does.
		if strings.Contains(line, `"type":"diagnostic"`) && strings.Contains(line, `"@level":"warn"`) {
			return true
		}
		for _, suffix := range []string{`_start"`, `_progress"`, `_complete"`, `_errored"`} {
			if strings.Contains(line, `"type":"`) && strings.Contains(line, suffix) && strings.Contains(line, `"hook":`) {
				return true
			}
		}
		return false
	})
	return strings.Join(out, "\n") + "\n", true
}

// compareJSON compares two JSON documents after normalising them; output
// that is not JSON on either side is compared as text.
func compareJSON(wantNorm, gotNorm normalizer, want, got string) (bool, string) {
	wantDoc, wantOK := canonicalJSON(want)
	gotDoc, gotOK := canonicalJSON(got)
	if !wantOK || !gotOK {
		return compareText(wantNorm.text(want), gotNorm.text(got))
	}
	return compareText(wantNorm.jsonDocument(wantDoc), gotNorm.jsonDocument(gotDoc))
}

func (n normalizer) jsonDocument(doc string) string {
	doc = n.text(doc)
	doc = versionField.ReplaceAllString(doc, `"terraform_version": "<version>"`)
	return serialField.ReplaceAllString(doc, `"serial": <serial>`)
}

// canonicalJSON re-encodes a JSON document with sorted keys and indented,
// so that differences show line by line.
func canonicalJSON(s string) (string, bool) {
	if strings.TrimSpace(s) == "" {
		return "", false
	}
	decoder := json.NewDecoder(strings.NewReader(s))
	decoder.UseNumber()
	var doc any
	if err := decoder.Decode(&doc); err != nil || decoder.More() {
		return "", false
	}
	sortCheckResults(doc)
	sortRelevantAttributes(doc)
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	encoder.SetIndent("", "  ")
	if err := encoder.Encode(doc); err != nil {
		return "", false
	}
	return out.String(), true
}

// sortCheckResults orders a state's check results by configuration
// address and their objects by object address: OpenTofu writes them in
// the order of a Go map, which varies from run to run.
func sortCheckResults(doc any) {
	top, ok := doc.(map[string]any)
	if !ok {
		return
	}
	results, ok := top["check_results"].([]any)
	if !ok {
		return
	}
	byKey := func(list []any, key string) {
		sort.SliceStable(list, func(i, j int) bool {
			a, _ := list[i].(map[string]any)
			b, _ := list[j].(map[string]any)
			return fmt.Sprint(a[key]) < fmt.Sprint(b[key])
		})
	}
	byKey(results, "config_addr")
	for _, r := range results {
		if m, ok := r.(map[string]any); ok {
			if objects, ok := m["objects"].([]any); ok {
				byKey(objects, "object_addr")
			}
		}
	}
}

// sortRelevantAttributes orders a plan's relevant attributes by resource
// and then attribute: OpenTofu sorts them by resource address only, and
// the attributes of one resource come in the order of a Go map, which
// varies from run to run.
func sortRelevantAttributes(doc any) {
	top, ok := doc.(map[string]any)
	if !ok {
		return
	}
	attrs, ok := top["relevant_attributes"].([]any)
	if !ok {
		return
	}
	key := func(v any) string {
		m, _ := v.(map[string]any)
		path, _ := json.Marshal(m["attribute"])
		return fmt.Sprint(m["resource"]) + " " + string(path)
	}
	sort.SliceStable(attrs, func(i, j int) bool { return key(attrs[i]) < key(attrs[j]) })
}

// compareText compares normalised outputs. Line breaks may differ only in a
// paragraph that names the product, its command or one of the side's own
// directories: the names and paths differ in length, so both programs wrap
// such a paragraph at other words.
func compareText(want, got string) (bool, string) {
	if want == got {
		return true, ""
	}
	wantParas, gotParas := paragraphs(want), paragraphs(got)
	if len(wantParas) == len(gotParas) {
		same := true
		for i := range wantParas {
			w, g := wantParas[i], gotParas[i]
			if w.raw == g.raw {
				continue
			}
			if w.joined != g.joined || !containsAny(w.raw, "<product>", "<cmd>", "$DIR", "$HOME", "$CLOUD", "$ORACLE_MIRROR", "$PROVIDER_MIRROR") {
				same = false
				break
			}
		}
		if same {
			return true, ""
		}
	}
	return false, lineDiff(strings.Split(want, "\n"), strings.Split(got, "\n"))
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// lineDiff prints a unified diff of two texts' lines (- OpenTofu, +
// Terrane) with three lines of context around each change.
func lineDiff(want, got []string) string {
	// lcs[i][j] is the length of the longest common subsequence of
	// want[i:] and got[j:].
	lcs := make([][]int, len(want)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(got)+1)
	}
	for i := len(want) - 1; i >= 0; i-- {
		for j := len(got) - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type edit struct {
		op   byte
		line string
	}
	var edits []edit
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case i < len(want) && j < len(got) && want[i] == got[j]:
			edits = append(edits, edit{' ', want[i]})
			i, j = i+1, j+1
		case j < len(got) && (i == len(want) || lcs[i][j+1] >= lcs[i+1][j]):
			edits = append(edits, edit{'+', got[j]})
			j++
		default:
			edits = append(edits, edit{'-', want[i]})
			i++
		}
	}
	// Show every change with three unchanged lines either side.
	const context = 3
	show := make([]bool, len(edits))
	for k, e := range edits {
		if e.op != ' ' {
			for c := max(0, k-context); c <= min(len(edits)-1, k+context); c++ {
				show[c] = true
			}
		}
	}
	var out strings.Builder
	for k, e := range edits {
		if !show[k] {
			continue
		}
		if k > 0 && !show[k-1] {
			out.WriteString("  ...\n")
		}
		fmt.Fprintf(&out, "%c %s\n", e.op, strings.ReplaceAll(e.line, "\x1b", "␛"))
	}
	return out.String()
}

type paragraph struct {
	raw    string
	joined string // the words, one space apart, without diagnostic frames
}

// paragraphs splits text at blank lines, framed or not.
func paragraphs(s string) []paragraph {
	var out []paragraph
	var raw []string
	var words []string
	flush := func() {
		if len(raw) > 0 {
			out = append(out, paragraph{raw: strings.Join(raw, "\n"), joined: strings.Join(words, " ")})
		}
		raw, words = nil, nil
	}
	style := ""
	for _, line := range strings.Split(s, "\n") {
		body := stripFrame(line)
		if strings.TrimSpace(body) == "" {
			flush()
			continue
		}
		raw = append(raw, line)
		// A line's leading style marker only repeats the style the
		// previous line ended in, wherever the line was broken.
		if marker := styleMarkerPattern.FindString(body); marker != "" && marker == style {
			body = strings.TrimPrefix(body, marker)
		}
		if markers := styleMarkerPattern.FindAllString(body, -1); len(markers) > 0 {
			style = markers[len(markers)-1]
		}
		words = append(words, strings.Fields(body)...)
	}
	flush()
	return out
}

// stripFrame removes a diagnostic's frame from the start of a line, with
// the style markers that only colour the frame.
func stripFrame(line string) string {
	for {
		body := strings.TrimLeft(line, "│╷╵ ")
		marker := styleMarkerPattern.FindString(body)
		if marker == "" || !strings.HasPrefix(body, marker) {
			return body
		}
		rest := body[len(marker):]
		if r, _ := utf8.DecodeRuneInString(rest); rest != "" && !strings.ContainsRune("│╷╵ ", r) {
			return body
		}
		line = rest
	}
}

var (
	sgrPattern         = regexp.MustCompile(`^\x1b\[([0-9;]*)m`)
	styleMarkerPattern = regexp.MustCompile(`⟨[^⟩]*⟩`)
)

// A textStyle is how a terminal draws a character.
type textStyle struct {
	bold, faint, italic, underline bool
	foreground, background         string
}

func (st textStyle) String() string {
	var parts []string
	for _, flag := range []struct {
		on   bool
		name string
	}{{st.bold, "bold"}, {st.faint, "faint"}, {st.italic, "italic"}, {st.underline, "underline"}} {
		if flag.on {
			parts = append(parts, flag.name)
		}
	}
	if st.foreground != "" {
		parts = append(parts, "fg"+st.foreground)
	}
	if st.background != "" {
		parts = append(parts, "bg"+st.background)
	}
	return "⟨" + strings.Join(parts, " ") + "⟩"
}

// apply changes the style by one SGR sequence's parameters.
func (st *textStyle) apply(params string) {
	codes := strings.Split(params, ";")
	for i := 0; i < len(codes); i++ {
		code, _ := strconv.Atoi(codes[i]) // "" is 0, a reset
		switch {
		case code == 0:
			*st = textStyle{}
		case code == 1:
			st.bold = true
		case code == 2:
			st.faint = true
		case code == 3:
			st.italic = true
		case code == 4:
			st.underline = true
		case code == 22:
			st.bold, st.faint = false, false
		case code == 23:
			st.italic = false
		case code == 24:
			st.underline = false
		case code == 39:
			st.foreground = ""
		case code == 49:
			st.background = ""
		case code == 38 || code == 48:
			// Extended colours: 5;N or 2;R;G;B.
			n := 2
			if i+1 < len(codes) && codes[i+1] == "2" {
				n = 4
			}
			end := min(len(codes), i+1+n)
			colour := strings.Join(codes[i+1:end], ";")
			if code == 38 {
				st.foreground = colour
			} else {
				st.background = colour
			}
			i = end - 1
		case code >= 30 && code <= 37 || code >= 90 && code <= 97:
			st.foreground = codes[i]
		case code >= 40 && code <= 47 || code >= 100 && code <= 107:
			st.background = codes[i]
		}
	}
}

// canonicalANSI rewrites colour and style codes so that output a terminal
// draws the same reads the same: a marker of the whole style before the
// first visible character of each line and before each later one whose
// style differs from the last one marked. Where
// one program resets a style that the other never set, or sets it a
// character earlier over a space, the user sees no difference.
func canonicalANSI(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var current, shown textStyle
	var out strings.Builder
	for i := 0; i < len(s); {
		if m := sgrPattern.FindStringSubmatch(s[i:]); m != nil {
			current.apply(m[1])
			i += len(m[0])
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\n' {
			// Every line says its own style, so that lines can be
			// compared and sorted on their own.
			shown = textStyle{foreground: "unset"}
		}
		if !unicode.IsSpace(r) && current != shown {
			out.WriteString(current.String())
			shown = current
		}
		out.WriteRune(r)
		i += size
	}
	return out.String()
}
