package logging

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
)

// The environment variables that configure Terrane's log.
const (
	EnvLog     = "TERRANE_LOG"
	EnvLogPath = "TERRANE_LOG_PATH"
)

// levelNames are the values TERRANE_LOG accepts, most verbose first.
var levelNames = []string{"trace", "debug", "info", "warn", "error", "off"}

// ParseLevel reads a TERRANE_LOG value. The empty string means off.
func ParseLevel(s string) (hclog.Level, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "" {
		return hclog.Off, nil
	}
	for _, valid := range levelNames {
		if name == valid {
			return hclog.LevelFromString(name), nil
		}
	}
	return hclog.Off, fmt.Errorf("%s=%q is not a log level; use one of %s", EnvLog, s, strings.Join(levelNames, ", "))
}

// Options configure a root logger explicitly, for callers (and tests) that
// do not take the configuration from the environment.
type Options struct {
	Level  hclog.Level
	Output io.Writer
}

// New returns a root logger with the given options. Levels are independent
// so that a provider's log (forwarded through a named sub-logger) is
// filtered by Terrane's level, not by the level the provider chose.
func New(opts Options) hclog.Logger {
	if opts.Output == nil {
		opts.Output = os.Stderr
	}
	return hclog.New(&hclog.LoggerOptions{
		Name:              "terrane",
		Level:             opts.Level,
		Output:            opts.Output,
		IndependentLevels: true,
	})
}

// FromEnv builds the root logger TERRANE_LOG and TERRANE_LOG_PATH describe.
// A bad level or an unwritable path does not stop Terrane: the problem is
// reported on stderr and logging falls back (to off, or to stderr).
func FromEnv() hclog.Logger {
	level, err := ParseLevel(os.Getenv(EnvLog))
	if err != nil {
		fmt.Fprintf(os.Stderr, "Warning: %s; logging is off.\n", err)
	}
	var output io.Writer = os.Stderr
	if path := os.Getenv(EnvLogPath); path != "" && level != hclog.Off {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(os.Stderr, "Warning: cannot open the log file %s=%s (%v); logging to stderr instead.\n", EnvLogPath, path, err)
		} else {
			output = f
		}
	}
	return New(Options{Level: level, Output: output})
}

// root is the process-wide logger, read from the environment once: the log
// is configured for the whole process, like its stderr.
var root = sync.OnceValue(FromEnv)

// Root returns the process-wide logger.
func Root() hclog.Logger { return root() }

// Named returns the logger of one subsystem (such as "plugin" or "engine").
func Named(subsystem string) hclog.Logger { return root().Named(subsystem) }
