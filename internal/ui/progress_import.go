package ui

import (
	"fmt"
	"io"

	"github.com/terrane/terrane/internal/addrs"
)

// The lines OpenTofu prints about imports. An import block's are
// "Preparing import...", "Importing..." and "Import complete", with the
// ID; `terrane import` says "Importing from ID" and "Import prepared!".

// PreImport reports that a provider is asked to import an object.
func (h *ProgressHook) PreImport(addr addrs.AbsResourceInstance, id string, commandLine bool) {
	if commandLine {
		h.colorLine("[reset][bold]%s: Importing from ID %q...", addr, id)
		return
	}
	h.colorLine("[reset][bold]%s: Preparing import...%s", addr, idSuffix("id", id))
}

// PostImport reports what `terrane import` got back.
func (h *ProgressHook) PostImport(addr addrs.AbsResourceInstance, typeNames []string, commandLine bool) {
	if !commandLine {
		return
	}
	h.colorLine("[reset][bold][green]%s: Import prepared!", addr)
	for _, name := range typeNames {
		h.colorLine("[reset][green]  Prepared %s for import", name)
	}
}

// PreApplyImport reports that an imported object is being recorded.
func (h *ProgressHook) PreApplyImport(addr addrs.AbsResourceInstance, id string) {
	h.colorLine("[reset][bold]%s: Importing...%s", addr, idSuffix("id", id))
}

// PostApplyImport reports that it was.
func (h *ProgressHook) PostApplyImport(addr addrs.AbsResourceInstance, id string) {
	h.colorLine("[reset][bold]%s: Import complete%s", addr, idSuffix("id", id))
}

// colorLine writes a line as OpenTofu writes these: the format marked up,
// then the values put in.
func (h *ProgressHook) colorLine(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, _ = io.WriteString(h.out, fmt.Sprintf(Colorize(format, h.pal.enabled), args...)+"\n")
}
