package jsonview

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/version"
)

// UIVersion is the version of the message format; consumers check its
// major version.
const UIVersion = "1.2"

// Module is the "@module" every message carries.
const Module = "terrane.ui"

// Levels of messages.
const (
	LevelInfo  = "info"
	LevelWarn  = "warn"
	LevelError = "error"
)

// View writes UI messages to one stream. It is safe for concurrent use:
// each message is written whole, on its own line.
type View struct {
	mu  sync.Mutex
	out io.Writer
	// Now returns the time stamped on messages; tests replace it.
	Now func() time.Time
}

// New returns a View writing to out.
func New(out io.Writer) *View {
	return &View{out: out, Now: time.Now}
}

// timestampLayout is the "@timestamp" format: RFC 3339 with microseconds.
const timestampLayout = "2006-01-02T15:04:05.000000Z07:00"

// emit writes one message: the common properties and fields, whose keys
// become top-level properties.
func (v *View) emit(level, messageType, message string, fields map[string]any) {
	msg := make(map[string]any, len(fields)+5)
	for key, value := range fields {
		msg[key] = value
	}
	msg["@level"] = level
	msg["@message"] = message
	msg["@module"] = Module
	msg["@timestamp"] = v.Now().Format(timestampLayout)
	if messageType != "" {
		msg["type"] = messageType
	}
	line, err := json.Marshal(msg)
	if err != nil {
		// Every field is built by this package from plain data; say so
		// rather than drop the message silently.
		line, _ = json.Marshal(map[string]any{
			"@level": LevelError, "@message": fmt.Sprintf("cannot encode %s message: %s", messageType, err),
			"@module": Module, "@timestamp": v.Now().Format(timestampLayout), "type": "log",
		})
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.out.Write(append(line, '\n'))
}

// Version writes the first message of a stream: the program's version, the
// OpenTofu version it implements (under "tofu", where OpenTofu gives its
// own) and the UI format version.
func (v *View) Version() {
	v.emit(LevelInfo, "version", "Terrane "+version.String(), map[string]any{
		"tofu":    version.OpenTofuVersion,
		"terrane": version.String(),
		"ui":      UIVersion,
	})
}

// Message writes a message with no type, as OpenTofu's views write the
// progress of commands such as init.
func (v *View) Message(level, message string) {
	v.emit(level, "", message, nil)
}

// Log writes a free-form message.
func (v *View) Log(level, message string) {
	v.emit(level, "log", message, nil)
}

// Diagnostics writes one message per diagnostic, with a source snippet when
// its file is among sources.
func (v *View) Diagnostics(ds diags.Diagnostics, sources ui.Sources) {
	for _, d := range ds {
		level, prefix := LevelError, "Error: "
		if d.Severity != diags.Error {
			level, prefix = LevelWarn, "Warning: "
		}
		v.emit(level, "diagnostic", prefix+d.Summary, map[string]any{
			"diagnostic": ui.NewDiagnosticJSON(d, sources),
		})
	}
}

// Typed writes a message of the given type with extra top-level fields, as
// OpenTofu's views write the results of commands such as state list
// ("resource_address").
func (v *View) Typed(level, messageType, message string, fields map[string]any) {
	v.emit(level, messageType, message, fields)
}
