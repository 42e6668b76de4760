package lang

import (
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang/funcs"
)

// Scope is everything needed to evaluate expressions at one place in the
// configuration: where values come from, what `self` means there, and the
// settings the function table depends on. A Scope may be used from several
// goroutines once built.
type Scope struct {
	// Data resolves references. Required.
	Data Data
	// SelfAddr is what `self` refers to, or nil where self is not allowed.
	// It is a resource instance in provisioner and postcondition blocks.
	SelfAddr addrs.Referenceable
	// BaseDir is where file functions resolve relative paths.
	BaseDir string
	// PlanTimestamp is returned by plantimestamp(); zero means unknown.
	PlanTimestamp time.Time
	// PureOnly makes impure functions (uuid, timestamp, bcrypt) unknown.
	PureOnly bool
	// ConsoleMode offers type() and withholds plantimestamp().
	ConsoleMode bool
	// ProviderFunctions resolves provider::NAME::FUNCTION calls; nil makes
	// every such call (other than the built-in provider::terraform ones) an
	// error saying provider functions are unavailable here.
	ProviderFunctions ProviderFunctionResolver

	// shared holds the function table; scopes made by WithData share it.
	shared   *sharedTable
	sharedMu sync.Mutex
}

type sharedTable struct {
	once  sync.Once
	funcs map[string]function.Function
}

// WithData returns a scope like s that resolves references through data
// and gives `self` the meaning selfAddr (nil: not allowed), sharing s's
// function table. Per-instance scopes of an expansion should be made this
// way: building a function table costs far more than evaluating a body.
func (s *Scope) WithData(data Data, selfAddr addrs.Referenceable) *Scope {
	s.ensureShared()
	return &Scope{
		Data:              data,
		SelfAddr:          selfAddr,
		BaseDir:           s.BaseDir,
		PlanTimestamp:     s.PlanTimestamp,
		PureOnly:          s.PureOnly,
		ConsoleMode:       s.ConsoleMode,
		ProviderFunctions: s.ProviderFunctions,
		shared:            s.shared,
	}
}

func (s *Scope) ensureShared() {
	s.sharedMu.Lock()
	if s.shared == nil {
		s.shared = &sharedTable{}
	}
	s.sharedMu.Unlock()
}

// Functions returns the built-in function table of this scope, built once.
// Callers must not modify it.
func (s *Scope) Functions() map[string]function.Function {
	s.ensureShared()
	s.shared.once.Do(func() {
		s.shared.funcs = funcs.Table(funcs.Options{
			BaseDir:       s.BaseDir,
			PlanTimestamp: s.PlanTimestamp,
			PureOnly:      s.PureOnly,
			ConsoleMode:   s.ConsoleMode,
		})
	})
	return s.shared.funcs
}

// functionsFor returns the function table for evaluating node: the built-in
// table, plus the provider functions node calls. The built-in table is
// shared unless provider functions must be added to a copy.
func (s *Scope) functionsFor(calls []ProviderFunctionRef) (map[string]function.Function, hcl.Diagnostics) {
	builtin := s.Functions()
	if len(calls) == 0 {
		return builtin, nil
	}
	table := make(map[string]function.Function, len(builtin)+len(calls))
	for name, f := range builtin {
		table[name] = f
	}
	var diags hcl.Diagnostics
	for _, ref := range calls {
		if _, done := table[ref.String()]; done {
			continue
		}
		if s.ProviderFunctions == nil {
			diags = diags.Append(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider function not available here",
				Detail:   "Provider-defined functions such as " + ref.String() + " cannot be called in this context; they need a configured provider.",
				Subject:  ref.CallRange.Ptr(),
			})
			continue
		}
		fn, found, fnDiags := s.ProviderFunctions(ref)
		diags = append(diags, fnDiags...)
		if fnDiags.HasErrors() {
			continue
		}
		if !found {
			diags = diags.Append(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Function not found in provider",
				Detail:   fmt.Sprintf("Function %q was not registered by provider", ref.String()),
				Subject:  ref.CallRange.Ptr(),
			})
			continue
		}
		table[ref.String()] = fn
	}
	return table, diags
}
