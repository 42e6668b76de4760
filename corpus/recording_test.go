package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Recordings of the oracle.
//
// OpenTofu's half of a case is the same every time for the same case, the
// same OpenTofu, the same providers and the same runner, so its
// observations are recorded under oracle/ (the working directory's paths
// replaced by $DIR, $HOME and $CLOUD), each with the fingerprint of all
// four. A case whose recording is missing or has another fingerprint runs
// the oracle live and records it again; so does a random sample of the
// others (CORPUS_ORACLE_SAMPLE, an eighth by default), and a sampled
// recording that no longer matches what the oracle does fails the case.
// CORPUS_ORACLE=live runs the oracle for every case; =recorded samples
// none. Recordings are written when they change, to be committed with the
// cases.

// recordingFormat changes when what a recording holds changes.
const recordingFormat = "terrane-corpus-recording-1"

// A recording is OpenTofu's observations of one case.
type recording struct {
	Fingerprint  string                `json:"fingerprint"`
	Observations []recordedObservation `json:"observations"`
}

type recordedObservation struct {
	Label   string `json:"label"`
	TFStep  int    `json:"tf_step,omitempty"`
	Main    bool   `json:"main,omitempty"`
	AsJSON  bool   `json:"as_json,omitempty"`
	Code    int    `json:"code,omitempty"`
	Failure string `json:"failure,omitempty"`
	Stdout  string `json:"stdout,omitempty"`
	Stderr  string `json:"stderr,omitempty"`
}

// oracleMode is how the corpus uses the recordings this run.
type oracleMode struct {
	live   bool    // every case runs the oracle
	sample float64 // the share of recorded cases that run it too
	seed   uint64
}

func readOracleMode(t *testing.T) oracleMode {
	mode := oracleMode{sample: 0.125, seed: rand.Uint64()}
	switch v := os.Getenv("CORPUS_ORACLE"); v {
	case "", "sample":
	case "live":
		mode.live = true
	case "recorded":
		mode.sample = 0
	default:
		t.Fatalf("CORPUS_ORACLE=%q: want live, sample or recorded", v)
	}
	if v := os.Getenv("CORPUS_ORACLE_SAMPLE"); v != "" {
		share, err := strconv.ParseFloat(v, 64)
		if err != nil || share < 0 || share > 1 {
			t.Fatalf("CORPUS_ORACLE_SAMPLE=%q: want a share between 0 and 1", v)
		}
		mode.sample = share
	}
	if v := os.Getenv("CORPUS_ORACLE_SEED"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("CORPUS_ORACLE_SEED=%q: want a number", v)
		}
		mode.seed = seed
	}
	return mode
}

// sampled reports whether a recorded case runs the oracle this time.
func (m oracleMode) sampled(name string) bool {
	if m.live || m.sample >= 1 {
		return true
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", m.seed, name)
	return float64(h.Sum64()%1_000_000) < m.sample*1_000_000
}

// oracleFingerprint digests what decides the oracle's observations besides
// the case: OpenTofu's version, the providers in both mirrors, and the
// runner's code.
func oracleFingerprint(tofu, oracleMirror, testMirror, corpusDir string) (string, error) {
	digest := sha256.New()
	fmt.Fprintln(digest, recordingFormat)
	version := exec.Command(tofu, "version")
	version.Env = []string{"CHECKPOINT_DISABLE=1", "PATH=" + os.Getenv("PATH")}
	out, err := version.Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %v", tofu, err)
	}
	digest.Write(out)
	if err := digestTree(digest, oracleMirror); err != nil {
		return "", err
	}
	// The test providers' mirror is named for a digest of their sources.
	fmt.Fprintln(digest, filepath.Base(testMirror))
	for _, name := range []string{"side_test.go", "script_test.go"} {
		src, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(digest, "%s %d\n", name, len(src))
		digest.Write(src)
	}
	return hex.EncodeToString(digest.Sum(nil)), nil
}

// digestTree writes the names and sizes of the files under root.
func digestTree(w io.Writer, root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		_, err = fmt.Fprintf(w, "%s %d\n", filepath.ToSlash(rel), info.Size())
		return err
	})
}

// caseFingerprint is the fingerprint a recording of c must have.
func caseFingerprint(oracle string, c *caseFile) string {
	digest := sha256.New()
	fmt.Fprintln(digest, oracle)
	digest.Write(c.source)
	return hex.EncodeToString(digest.Sum(nil))
}

func recordingPath(corpusDir, name string) string {
	return filepath.Join(corpusDir, "oracle", filepath.FromSlash(name)+".json")
}

// loadRecording returns the case's recording when it has the fingerprint,
// else nil.
func loadRecording(path, fingerprint string) ([]observation, error) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rec recording
	if err := json.Unmarshal(src, &rec); err != nil {
		return nil, fmt.Errorf("%s: %v (remove it to record the case again)", path, err)
	}
	if rec.Fingerprint != fingerprint {
		return nil, nil
	}
	obs := make([]observation, len(rec.Observations))
	for i, r := range rec.Observations {
		obs[i] = observation{label: r.Label, tfStep: r.TFStep, main: r.Main, asJSON: r.AsJSON,
			code: r.Code, failure: r.Failure, stdout: r.Stdout, stderr: r.Stderr}
	}
	return obs, nil
}

// saveRecording writes a case's recording.
func saveRecording(path, fingerprint string, obs []observation) error {
	rec := recording{Fingerprint: fingerprint, Observations: make([]recordedObservation, len(obs))}
	for i, o := range obs {
		rec.Observations[i] = recordedObservation{Label: o.label, TFStep: o.tfStep, Main: o.main, AsJSON: o.asJSON,
			Code: o.code, Failure: o.failure, Stdout: o.stdout, Stderr: o.stderr}
	}
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	encoder.SetIndent("", "  ")
	if err := encoder.Encode(rec); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// recorded rewrites one side's observations as a recording holds them:
// the side's own directories replaced by $DIR, $HOME and $CLOUD.
func recorded(s *side, obs []observation) []observation {
	paths := newNormalizer(s).replacer
	out := make([]observation, len(obs))
	for i, o := range obs {
		o.stdout, o.stderr, o.failure = paths.Replace(o.stdout), paths.Replace(o.stderr), paths.Replace(o.failure)
		out[i] = o
	}
	return out
}

// checkRecording reports where a fresh run of the oracle differs from its
// recording: OpenTofu doing something the recording did not see.
func checkRecording(t *testing.T, path string, rec, live []observation) bool {
	t.Helper()
	if len(rec) != len(live) {
		t.Errorf("%s holds %d observations, OpenTofu now makes %d: record the case again (CORPUS_ORACLE=live)", path, len(rec), len(live))
		return false
	}
	same := true
	paths := recordedNormalizer
	for i := range rec {
		r, l := rec[i], live[i]
		if r.code != l.code || r.failure != l.failure {
			t.Errorf("%s: recorded exit %d (%s), OpenTofu now exits %d (%s)", r.label, r.code, orNone(r.failure), l.code, orNone(l.failure))
			same = false
			continue
		}
		for _, stream := range [][3]string{{"stdout", r.stdout, l.stdout}, {"stderr", r.stderr, l.stderr}} {
			var ok bool
			var diff string
			if r.asJSON && stream[0] == "stdout" {
				ok, diff = compareJSON(paths, paths, stream[1], stream[2])
			} else {
				ok, diff = compareText(paths.text(stream[1]), paths.text(stream[2]))
			}
			if !ok {
				t.Errorf("%s: OpenTofu's %s differs from its recording in %s (-recorded +now):\n%s", r.label, stream[0], path, diff)
				same = false
			}
		}
	}
	return same
}

// TestCorpusRecordingsHaveCases fails on a recording whose case is gone.
func TestCorpusRecordingsHaveCases(t *testing.T) {
	t.Parallel()
	dir := sourceDir(t)
	root := filepath.Join(dir, "oracle")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == root {
			return nil
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name, ok := strings.CutSuffix(filepath.ToSlash(rel), ".json")
		if !ok || !fileExists(filepath.Join(dir, "cases", filepath.FromSlash(name)+".txt")) {
			t.Errorf("oracle/%s records no case under cases/: remove it", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
