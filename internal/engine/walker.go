package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/validate"
)

// walkOp is what a walk is for.
type walkOp int

const (
	walkPlan walkOp = iota
	walkApply
	// walkEval works out values from the recorded state and changes
	// nothing: see Engine.Eval.
	walkEval
)

// walker is the state of one walk over the graph: the values worked out so
// far, the provider processes, and what the walk produces.
type walker struct {
	e         *Engine
	ctx       context.Context
	op        walkOp
	planOpts  PlanOpts
	cfg       *config.Config
	values    *walkValues
	providers *providerSet
	scopes    map[string]*lang.Scope // base scope per module path
	baseScope *lang.Scope            // root's; used by scope() through WithData
	// callSem bounds concurrent provider calls (Options.Parallelism).
	callSem chan struct{}
	// instanceSlots bounds the instances worked on at once; see
	// instanceGroup.
	instanceSlots chan struct{}
	// operationSlots bound the changes with an open intent
	// (Options.Parallelism); see operation.
	operationSlots chan struct{}
	// heldSlots are the release functions of the operation slots held, by
	// instance address; writing a call's result releases its slot.
	heldSlots sync.Map
	// lazyDiags gathers what loading state values on demand reported
	// (loadStateValue).
	lazyMu    sync.Mutex
	lazyDiags diags.Diagnostics

	// prior is the state the walk starts from: the snapshot during plan,
	// the working state during apply.
	prior    *states.SyncState
	snapshot *recordstore.Snapshot

	plan    *planCollector // plan walks
	applier *applier       // apply walks
	// failures are the instances whose changes failed (apply walks).
	failures *failureSet
	// scope limits a plan to its targets and excludes; nil plans all.
	planScope *planScope
	// keptOutputs, in a walk limited by -target or -exclude, are the root
	// output vertices it evaluates; the others keep their recorded values.
	// nil evaluates every output.
	keptOutputs map[string]bool
	// failedBeforePlanning is set when a destroy plan's walk finds what
	// OpenTofu's refresh before a destroy plan would have stopped at: no
	// plan is made then.
	failedBeforePlanning atomic.Bool
	// cbdForced are the resources (vertex keys) create_before_destroy is
	// implied for; see createBeforeDestroyForced.
	cbdForced map[string]bool
	// recovery resolves open intents (plan walks over a state that has
	// some); nil otherwise.
	recovery *recoverer
	results  *outputsAndChecks
	// stateByConfig indexes the prior state's resources by configuration
	// address, for finding orphans.
	stateByConfig map[string][]*states.Resource
	// refactor is what moved, removed and import blocks do to a plan
	// walk; nil on apply walks.
	refactor *refactorState
	// dataRead are the data source instances an apply walk expanded; see
	// dropUnreadDataResults.
	dataRead dataReadSet
	// readResources are the resource vertices some other vertex depends
	// on, set by a plan once its graph is built; nil keeps every value.
	// See keepsInstanceValues.
	readResources map[string]bool
	// providerMetas caches each module instance's provider_meta value per
	// provider; see providerMeta.
	providerMetas sync.Map
	// attrTriggerTargets are the resources replace_triggered_by names an
	// attribute of; see attributeTriggerTargets.
	attrTriggerTargets map[string]bool
	// triggerTargets are the resources (ConfigResource strings) any
	// replace_triggered_by names: the plan notes which of their instances
	// it has a change for, no-ops included.
	triggerTargets map[string]bool
	// ephemerals are the ephemeral resource instances the walk opened.
	ephemerals *ephemeralSet
}

func (e *Engine) newWalker(ctx context.Context, op walkOp, snap *recordstore.Snapshot, set *providerSet) *walker {
	w := &walker{
		e: e, ctx: ctx, op: op, cfg: e.opts.Config, values: newWalkValues(), providers: set,
		scopes: map[string]*lang.Scope{}, callSem: make(chan struct{}, e.opts.Parallelism),
		instanceSlots: make(chan struct{}, instanceSlots(op, e.opts.Parallelism)), operationSlots: make(chan struct{}, e.opts.Parallelism),
		prior: states.NewSyncState(workingState(op, snap.State)), snapshot: snap,
		results:            &outputsAndChecks{outputs: map[string]*states.OutputValue{}, nulls: map[string]bool{}},
		failures:           newFailureSet(),
		stateByConfig:      map[string][]*states.Resource{},
		attrTriggerTargets: map[string]bool{},
		triggerTargets:     map[string]bool{},
	}
	for _, res := range snap.State.SortedResources() {
		k := res.Addr.Config().String()
		w.stateByConfig[k] = append(w.stateByConfig[k], res)
	}
	// Relative file paths resolve from the root module's directory (the
	// working directory) in every module, as in OpenTofu: a module reads
	// its own files through path.module.
	// A plan leaves impure functions (timestamp, uuid, bcrypt) unknown:
	// their values are made when the plan is applied.
	baseDir := w.cfg.Root.Module.SourceDir
	w.cfg.DeepEach(func(c *config.Config) {
		w.scopes[c.Path.String()] = &lang.Scope{BaseDir: baseDir, PureOnly: op == walkPlan, ProviderFunctions: w.functionResolver(c)}
	})
	w.baseScope = w.scopes[""]
	return w
}

// setPlanTimestamp makes plantimestamp() return t in every module: when
// planning started, in the plan and in its apply alike.
func (w *walker) setPlanTimestamp(t time.Time) {
	for _, scope := range w.scopes {
		scope.PlanTimestamp = t
	}
}

// workingState is the state a walk of kind op reads and writes. An apply
// changes it as objects are created and deleted, so it works on a copy and
// the snapshot stays the state the plan was made against. A plan walk
// writes it only when recovery adopts records, which updates the snapshot
// alike, and SyncState hands out copies of what it holds: sharing the
// snapshot saves holding the whole state twice.
func workingState(op walkOp, snapshot *states.State) *states.State {
	if op != walkApply {
		return snapshot
	}
	return snapshot.DeepCopy()
}

// scopeIn is scope() with the base scope of module's own directory and
// provider names.
func (w *walker) scopeIn(module *config.Config, inst addrs.ModuleInstance, rep repetition, self addrs.Referenceable) *lang.Scope {
	return w.scopes[module.Path.String()].WithData(&evalData{w: w, module: module, inst: inst, rep: rep}, self)
}

// providerCall runs fn holding one of the Parallelism slots. It refuses to
// start once the run is cancelled; a call already started gets a context
// that is not cancelled, so it finishes and its result is recorded.
func (w *walker) providerCall(fn func(ctx context.Context)) error {
	select {
	case w.callSem <- struct{}{}:
	case <-w.ctx.Done():
		return errInterrupted
	}
	defer func() { <-w.callSem }()
	if w.ctx.Err() != nil {
		return errInterrupted
	}
	fn(context.WithoutCancel(w.ctx))
	return nil
}

var errInterrupted = errors.New("the run was interrupted before this operation started")

// run dispatches one vertex.
func (w *walker) run(ctx context.Context, v vertex) (diags.Diagnostics, bool) {
	var ds diags.Diagnostics
	ok := true
	switch v := v.(type) {
	case *providerVertex:
		ds = w.runProvider(v)
	case *variableVertex:
		ds = w.runVariable(v)
	case *localVertex:
		ds = w.eachModuleInstance(v.module, func(inst addrs.ModuleInstance) diags.Diagnostics {
			val, hd := w.scopeIn(v.module, inst, repetition{}, nil).EvalExpr(v.local.Expr, cty.DynamicPseudoType)
			w.values.set(w.values.locals, namedKey(inst, v.local.Name), val)
			return diags.Diagnostics{}.Append(hd)
		})
	case *outputVertex:
		ds = w.runOutput(v)
	case *callVertex:
		ds = w.runCall(v)
	case *resourceVertex:
		if w.op == walkEval {
			ds = w.evalResource(v)
			w.values.finishResource(v.key())
			break
		}
		// In apply, an instance's failure stops only what reads it (see
		// failedDependency), so the vertex itself does not fail.
		ds, ok = w.runResource(v)
		w.values.finishResource(v.key())
	case *ephemeralVertex:
		ds = w.runEphemeral(v)
		w.values.finishResource(v.key())
	case *orphanVertex:
		if w.op != walkEval {
			ds = w.runOrphan(v)
		}
	case *destroyVertex:
		ds = w.runDestroy(v)
	case *checkVertex:
		if w.op != walkEval {
			ds = w.runCheck(v)
		}
	}
	if _, isResource := v.(*resourceVertex); !isResource {
		ok = !ds.HasErrors()
	}
	return ds, ok
}

func (w *walker) eachModuleInstance(module *config.Config, fn func(addrs.ModuleInstance) diags.Diagnostics) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, inst := range w.values.moduleInstancesOf(module.Path) {
		ds = ds.Append(fn(inst))
	}
	return ds
}

// runVariable sets a variable in every instance of its module: a root
// variable from the input values, a child's from its module call.
func (w *walker) runVariable(v *variableVertex) diags.Diagnostics {
	return w.eachModuleInstance(v.module, func(inst addrs.ModuleInstance) diags.Diagnostics {
		var given cty.Value
		var ds diags.Diagnostics
		var rng hcl.Range = v.variable.DeclRange
		var from *InputValue
		if v.module.Parent == nil {
			if in, ok := w.e.opts.Variables[v.variable.Name]; ok && in != nil {
				given, from = in.Value, in
				if in.SourceRange.Filename != "" {
					rng = in.SourceRange
				}
			}
		} else if expr := v.module.CallArgument(v.variable.Name); expr != nil {
			parentInst := inst.Parent()
			scope := w.scopeIn(v.module.Parent, parentInst, w.values.moduleRepetition(inst), nil)
			val, hd := scope.EvalExpr(expr, cty.DynamicPseudoType)
			ds = ds.Append(hd)
			given, rng = val, expr.Range()
			if msg := v.variable.DeprecatedMessage; msg != "" {
				// OpenTofu warns the caller that sets a deprecated
				// variable, in every run; a command shows it once.
				ds = ds.Append(lang.DeprecatedVariableWarning(v.variable.Name, msg, expr, v.module.IsRemoteModule()))
			}
		}
		val, vds := w.finalizeVariable(v, inst, given, rng, from)
		w.values.set(w.values.variables, namedKey(inst, v.variable.Name), val)
		return ds.Append(vds)
	})
}

// finalizeVariable applies a variable's default, optional() defaults,
// type, nullability and sensitivity to the value given, then its
// validation rules.
func (w *walker) finalizeVariable(v *variableVertex, inst addrs.ModuleInstance, given cty.Value, rng hcl.Range, from *InputValue) (cty.Value, diags.Diagnostics) {
	decl := v.variable
	var ds diags.Diagnostics
	if given == cty.NilVal || (given.IsNull() && !decl.Nullable) {
		if decl.Default == nil {
			if given == cty.NilVal {
				return cty.UnknownVal(decl.Type.Type), ds.Append(diags.Diagnostic{Severity: diags.Error,
					Summary: "No value for required variable",
					Detail:  fmt.Sprintf("The variable %q has no default, so a value must be given (-var, a .tfvars file, or TF_VAR_%s).", decl.Name, decl.Name),
					Subject: decl.DeclRange.Ptr(), Address: addrs.InputVariable{Name: decl.Name}.Absolute(inst).String()})
			}
			addr := addrs.InputVariable{Name: decl.Name}.Absolute(inst)
			if source := nonFileSource(decl, from); source != "" {
				return cty.UnknownVal(decl.Type.Type), ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Required variable not set",
					Detail:  fmt.Sprintf("Unsuitable value for %s %s: required variable may not be set to null.", addr, source),
					Subject: decl.DeclRange.Ptr()})
			}
			return cty.UnknownVal(decl.Type.Type), ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Required variable not set",
				Detail:  fmt.Sprintf("The given value is not suitable for %s defined at %s: required variable may not be set to null.", addr, decl.DeclRange),
				Subject: rng.Ptr()})
		}
		def, hd := decl.Default.Value(nil)
		ds = ds.Append(hd)
		given = def
	}
	if decl.Type.Defaults != nil && !given.IsNull() {
		given = decl.Type.Defaults.Apply(given)
	}
	val, err := convert.Convert(given, decl.Type.Type)
	if err != nil {
		addr := addrs.InputVariable{Name: decl.Name}.Absolute(inst)
		return cty.UnknownVal(decl.Type.Type), ds.Append(unsuitableVariableValue(decl, addr, from, rng, err))
	}
	if decl.Sensitive {
		val = val.Mark(marks.Sensitive)
	}
	switch {
	case decl.Ephemeral:
		val = val.Mark(marks.Ephemeral)
	case marks.Contains(val, marks.Ephemeral):
		// Only a module call can pass an ephemeral value; a root
		// variable's value comes from outside.
		d := lang.EphemeralVariableNotAllowed(decl.Name, rng)
		d.Address = addrs.InputVariable{Name: decl.Name}.Absolute(inst).String()
		return cty.UnknownVal(decl.Type.Type), ds.Append(d)
	}
	w.values.set(w.values.variables, namedKey(inst, decl.Name), val)
	return val, ds.Append(w.validateVariable(v, inst))
}

// validateVariable evaluates a variable's validation rules once its value
// is set. A failure is reported at the value's expression in the module
// call, or at the declaration of a root variable, as OpenTofu does.
func (w *walker) validateVariable(v *variableVertex, inst addrs.ModuleInstance) diags.Diagnostics {
	if len(v.variable.Validations) == 0 {
		return nil
	}
	scope := w.scopeIn(v.module, inst, repetition{}, nil)
	addr := addrs.InputVariable{Name: v.variable.Name}.Absolute(inst).String()
	subject := v.variable.DeclRange
	if v.module.Parent != nil {
		if expr := v.module.CallArgument(v.variable.Name); expr != nil {
			subject = expr.Range()
		}
	}
	status, failures, ds := validate.VariableValidations(scope, v.variable, addr, subject)
	w.recordCheckObject(plans.CheckableInputVariable, modulePrefix(v.module.Path)+"var."+v.variable.Name,
		plans.CheckObjectResult{ObjectAddr: addr, Status: status, FailureMessages: failures})
	return ds
}

func (w *walker) runOutput(v *outputVertex) diags.Diagnostics {
	return w.eachModuleInstance(v.module, func(inst addrs.ModuleInstance) diags.Diagnostics {
		if inst.IsRoot() && w.planOpts.Mode == plans.DestroyMode && w.op != walkPlan {
			// A destroy removes every root output without evaluating it
			// again: nothing reads them, and the objects they refer to may
			// already be gone when the output's turn comes. Its plan
			// evaluates them, as OpenTofu's refresh before a destroy plan
			// does, to show what each one was.
			return nil
		}
		if inst.IsRoot() && w.keptOutputs != nil && !w.keptOutputs[v.key()] {
			w.keepPriorRootOutput(v.output)
			return nil
		}
		var ds diags.Diagnostics
		scope := w.scopeIn(v.module, inst, repetition{}, nil)
		if w.op != walkEval {
			ds = ds.Append(w.checkRules(scope, outputRules(v.module, inst, v.output)))
		}
		var val cty.Value
		var hd hcl.Diagnostics
		if !ds.HasErrors() {
			// A failed precondition stops the output before its value is
			// evaluated, as in OpenTofu: no change, no record.
			val, hd = w.outputValue(v, inst, scope)
			ds = ds.Append(hd)
		}
		if ds.HasErrors() {
			// Its value was never made: neither a change nor a new
			// record, as in OpenTofu (see recordRootOutput).
			val = cty.DynamicVal.Mark(failedMark)
		}
		undeclaredSensitive := false
		if v.output.Sensitive {
			val = val.Mark(marks.Sensitive)
		} else if inst.IsRoot() && marks.Contains(val, marks.Sensitive) {
			ds = ds.Append(lang.UndeclaredSensitiveOutput(v.output.DeclRange))
			undeclaredSensitive = true
		}
		switch {
		case v.output.Ephemeral:
			val = val.Mark(marks.Ephemeral)
		case marks.Contains(val, marks.Ephemeral):
			ds = ds.Append(lang.EphemeralOutputNotAllowed(v.output.Name, outputSubject(v.output)))
			// Neither kept nor passed on: see recordRootOutput.
			val = cty.DynamicVal.Mark(failedMark)
		}
		w.values.set(w.values.outputs, namedKey(inst, v.output.Name), val)
		switch {
		case undeclaredSensitive:
			// Never recorded, so neither output nor show nor a
			// terraform_remote_state reader ever sees it in plain text.
			w.keepPriorRootOutput(v.output)
		case inst.IsRoot():
			w.recordRootOutput(v.output, val)
		}
		return ds
	})
}

// outputValue evaluates an output; but an apply takes a root output the
// plan knew in full from the plan, as OpenTofu does, so that what is
// recorded is what the plan showed (the plan's encoding keeps no negative
// zero, for one).
func (w *walker) outputValue(v *outputVertex, inst addrs.ModuleInstance, scope *lang.Scope) (cty.Value, hcl.Diagnostics) {
	if w.op == walkApply && inst.IsRoot() && w.applier != nil {
		if planned, ok := w.applier.plannedRootOutput(v.output.Name); ok {
			return planned, nil
		}
	}
	return scope.EvalExpr(v.output.Expr, cty.DynamicPseudoType)
}

// runCall expands a module call in every instance of the calling module.
func (w *walker) runCall(v *callVertex) diags.Diagnostics {
	childPath := v.module.Path.Child(v.call.Name)
	return w.eachModuleInstance(v.module, func(inst addrs.ModuleInstance) diags.Diagnostics {
		callAddr := inst.Child(v.call.Name, addrs.NoKey).String()
		exp, ds := w.expand(w.scopeIn(v.module, inst, repetition{}, nil), v.call.Count, v.call.ForEach, v.call.Enabled, lang.Unknowns{Allow: w.op == walkEval, Excludable: callAddr})
		if exp.unknown {
			exp = &expansion{mode: exp.mode}
		}
		w.values.addCallExpansion(inst, childPath, v.call.Name, exp)
		return ds
	})
}

// singleKey is the keys of every expansion of one instance, shared.
var singleKey = []addrs.InstanceKey{addrs.NoKey}

// expand evaluates count, for_each or enabled into an expansion. A value
// not known yet makes an unknown expansion, with an error unless unknowns
// allows it.
func (w *walker) expand(scope *lang.Scope, count, forEach, enabled hcl.Expression, unknowns lang.Unknowns) (*expansion, diags.Diagnostics) {
	var ds diags.Diagnostics
	exp := &expansion{}
	switch {
	case count != nil:
		exp.mode = expandCount
		n, known, hd := scope.EvalCount(count, unknowns)
		ds = ds.Append(hd)
		if !known {
			exp.unknown = true
			return exp, ds
		}
		exp.keys = make([]addrs.InstanceKey, n)
		for i := range n {
			exp.keys[i] = addrs.IntKey(i)
		}
	case forEach != nil:
		exp.mode = expandForEach
		elems, known, hd := scope.EvalForEach(forEach, unknowns)
		ds = ds.Append(hd)
		if !known {
			exp.unknown = true
			return exp, ds
		}
		exp.each = elems
		sorted := sortedKeys(elems)
		exp.keys = make([]addrs.InstanceKey, len(sorted))
		for i, k := range sorted {
			exp.keys[i] = addrs.StringKey(k)
		}
	default:
		exp.mode = expandSingle
		if enabled != nil {
			on, known, hd := scope.EvalEnabled(enabled, unknowns)
			ds = ds.Append(hd)
			if !known {
				exp.unknown = true
				return exp, ds
			}
			if !on {
				return exp, ds
			}
		}
		exp.keys = singleKey
	}
	return exp, ds
}

func (w *walker) runCheck(v *checkVertex) diags.Diagnostics {
	if w.planOpts.Mode == plans.DestroyMode {
		// A destroy checks nothing, as in Terraform: the objects checked
		// are on their way out.
		return nil
	}
	return w.eachModuleInstance(v.module, func(inst addrs.ModuleInstance) diags.Diagnostics {
		var ds diags.Diagnostics
		addr := inst.String()
		if addr != "" {
			addr += "."
		}
		configAddr, objectAddr := modulePrefix(v.module.Path)+"check."+v.check.Name, addr+"check."+v.check.Name
		if w.checkFailedByData(configAddr, objectAddr) {
			// Its data source could not be read: the check has failed
			// already, and its assertions would only restate that.
			return nil
		}
		scope := w.scopeIn(v.module, inst, repetition{}, nil)
		status := plans.CheckPass
		var failures []string
		for _, rule := range v.check.Asserts {
			out, rds := evalRule(scope, rule)
			// A check block never stops a run: its problems are warnings.
			for _, d := range rds {
				d.Severity = diags.Warning
				ds = append(ds, d)
			}
			if out.sensitiveMessage {
				ds = ds.Append(sensitiveMessageWarning(rule))
			}
			status = validate.WorseStatus(status, out.status)
			if out.status == plans.CheckFail {
				failures = append(failures, out.failureMessages()...)
				if out.ephemeralMessage {
					ds = ds.Append(ephemeralMessageWarning(rule))
				}
				ds = ds.Append(out.failure(diags.Warning, "Check block assertion failed", rule, modulePrefix(v.module.Path)+"check."+v.check.Name))
			}
			if out.status == plans.CheckUnknown && w.op == walkPlan {
				// With the values of the condition's references, as
				// OpenTofu shows them.
				ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Check block assertion known after apply",
					Detail:  "The condition could not be evaluated at this time, a result will be known when this plan is applied.",
					Subject: rule.Condition.Range().Ptr(), Object: modulePrefix(v.module.Path) + "check." + v.check.Name,
					Expression: rule.Condition, EvalContext: out.ctx})
			}
		}
		w.recordCheckObject(plans.CheckableCheck, configAddr,
			plans.CheckObjectResult{ObjectAddr: objectAddr, Status: status, FailureMessages: failures})
		for i := range ds {
			ds[i].FromCheckBlock = true
		}
		return ds
	})
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// unsuitableVariableValue is OpenTofu's error for a variable's value that
// does not convert to its type, at the declaration: it says where a root
// variable's value came from (-var, TF_VAR_, or the file and line it is
// given at), and for a sensitive or ephemeral one from a file, not the
// value's line, in case whoever reads it may not see the value itself.
// nonFileSource says, as OpenTofu's messages do, where a root variable's
// value came from when it was not a file: "set using -var=...", and so
// on; "" for a value from a file or a module call.
func nonFileSource(decl *config.Variable, from *InputValue) string {
	if from == nil {
		return ""
	}
	switch from.SourceType {
	case ValueFromCLIArg:
		return fmt.Sprintf("set using -var=\"%s=...\"", decl.Name)
	case ValueFromEnvVar:
		return fmt.Sprintf("set using the TF_VAR_%s environment variable", decl.Name)
	case ValueFromInput:
		return "set using an interactive prompt"
	case ValueFromAutoFile, ValueFromNamedFile:
		return ""
	}
	if from.SourceRange.Filename == "" {
		return "set from outside of the configuration"
	}
	return ""
}

func unsuitableVariableValue(decl *config.Variable, addr addrs.AbsInputVariableInstance, from *InputValue, valueRange hcl.Range, err error) diags.Diagnostic {
	var detail string
	switch source := nonFileSource(decl, from); {
	case source != "":
		detail = fmt.Sprintf("Unsuitable value for %s %s: %s.", addr, source, err)
	case decl.Ephemeral:
		detail = fmt.Sprintf("The given value is not suitable for %s, which is ephemeral: %s. Invalid value defined at %s.", addr, err, valueRange)
	case decl.Sensitive:
		detail = fmt.Sprintf("The given value is not suitable for %s, which is sensitive: %s. Invalid value defined at %s.", addr, err, valueRange)
	default:
		detail = fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", addr, decl.DeclRange, err)
	}
	return diags.Diagnostic{Severity: diags.Error, Summary: "Invalid value for input variable", Detail: detail, Subject: decl.DeclRange.Ptr()}
}
