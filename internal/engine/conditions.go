package engine

import (
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/validate"
)

// ruleOutcome is the result of one check rule: its status and, when it
// failed, its error message.
type ruleOutcome struct {
	status  plans.CheckStatus
	message string
	// ctx is the context the condition was evaluated in: the failure's
	// diagnostic shows the values of the condition's references.
	ctx *hcl.EvalContext
	// sensitiveMessage is set when the error message refers to sensitive
	// values, ephemeralMessage when it was built from ephemeral ones: the
	// message is then never shown nor recorded, and message is empty.
	sensitiveMessage bool
	ephemeralMessage bool
}

// failureMessages are the messages check results record for o.
func (o ruleOutcome) failureMessages() []string {
	if o.sensitiveMessage || o.ephemeralMessage {
		return nil
	}
	return []string{o.message}
}

// ephemeralMessageWarning explains a withheld error message, in OpenTofu's
// words.
func ephemeralMessageWarning(rule *config.CheckRule) diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Error message refers to ephemeral values",
		Detail: "The error expression used to explain this condition refers to ephemeral values, so Terrane will not display the resulting message.\n\n" +
			"You can correct this by removing references to ephemeral values, or by using the ephemeralasnull() function on the references to not reveal ephemeral data.",
		Subject: rule.ErrorMessage.Range().Ptr()}
}

// evalRule evaluates a condition and its error message; see
// validate.EvalRule.
func evalRule(scope *lang.Scope, rule *config.CheckRule) (ruleOutcome, diags.Diagnostics) {
	out, ds := validate.EvalRule(scope, rule)
	return ruleOutcome{status: out.Status, message: out.Message, ctx: out.Ctx,
		sensitiveMessage: out.SensitiveMessage, ephemeralMessage: out.EphemeralMessage}, ds
}

// sensitiveMessageWarning is OpenTofu's answer to a precondition,
// postcondition or check assertion whose error message refers to sensitive
// values: a warning, whatever the condition says, and the message withheld.
func sensitiveMessageWarning(rule *config.CheckRule) diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Error message refers to sensitive values",
		Detail:  "The error expression used to explain this condition refers to sensitive values, so Terrane will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
		Subject: rule.ErrorMessage.Range().Ptr()}
}

// failure is the diagnostic of a failed condition of the checkable object
// objectAddr: at the condition, with the values of its references.
func (out ruleOutcome) failure(severity diags.Severity, summary string, rule *config.CheckRule, objectAddr string) diags.Diagnostic {
	return diags.Diagnostic{Severity: severity, Summary: summary, Detail: out.failureDetail(),
		Subject: rule.Condition.Range().Ptr(), Object: objectAddr, FailedCheck: true,
		Expression: rule.Condition, EvalContext: out.ctx}
}

// failureDetail is the text a failed precondition, postcondition or check
// assertion reports.
func (out ruleOutcome) failureDetail() string {
	if out.message == "" {
		return "This check failed, but has an invalid error message as described in the other accompanying messages."
	}
	return out.message
}

// ruleSet is one object's rules of one kind: a resource's preconditions
// or postconditions, an output's preconditions.
type ruleSet struct {
	rules []*config.CheckRule
	// summary heads the error of a failed rule, as Terraform words it.
	summary string
	kind    plans.CheckableKind
	// configAddr and objectAddr name the object in check results.
	configAddr, objectAddr string
}

// checkRules evaluates rules in scope, reports each failure as an error at
// its condition, and records the object's outcome in the check results.
func (w *walker) checkRules(scope *lang.Scope, set ruleSet) diags.Diagnostics {
	if len(set.rules) == 0 {
		return nil
	}
	var ds diags.Diagnostics
	status := plans.CheckPass
	var failures []string
	for _, rule := range set.rules {
		out, rds := evalRule(scope, rule)
		ds = ds.Append(rds)
		if out.sensitiveMessage {
			ds = ds.Append(sensitiveMessageWarning(rule))
		}
		status = validate.WorseStatus(status, out.status)
		if out.status == plans.CheckFail {
			failures = append(failures, out.failureMessages()...)
			if out.ephemeralMessage {
				ds = ds.Append(ephemeralMessageWarning(rule))
			}
			ds = ds.Append(out.failure(diags.Error, set.summary, rule, set.objectAddr))
		}
	}
	w.recordCheckObject(set.kind, set.configAddr, plans.CheckObjectResult{ObjectAddr: set.objectAddr, Status: status, FailureMessages: failures})
	return ds
}

// resourceRules are the preconditions (post false) or postconditions
// (post true) of the resource addr is an instance of.
func resourceRules(work *resourceWork, addr addrs.AbsResourceInstance, post bool) ruleSet {
	r := work.v.resource
	set := ruleSet{rules: r.Preconditions, summary: "Resource precondition failed", kind: plans.CheckableResource,
		configAddr: work.v.key(), objectAddr: addr.String()}
	if post {
		set.rules, set.summary = r.Postconditions, "Resource postcondition failed"
	}
	return set
}

// checkPreconditions evaluates an instance's preconditions before it is
// planned, read or applied; an error means it must not be.
func (w *walker) checkPreconditions(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	set := resourceRules(work, addr, false)
	if len(set.rules) == 0 {
		return nil
	}
	return w.checkRules(w.scopeIn(work.v.module, addr.Module, rep, nil), set)
}

// checkPostconditions evaluates an instance's postconditions with self
// being its planned, read or new value, which the caller has put in the
// walk's values already. Conditions on values known only after apply are
// unknown during planning and evaluated again after apply.
func (w *walker) checkPostconditions(work *resourceWork, addr addrs.AbsResourceInstance, rep repetition) diags.Diagnostics {
	set := resourceRules(work, addr, true)
	if len(set.rules) == 0 {
		return nil
	}
	return w.checkRules(w.scopeIn(work.v.module, addr.Module, rep, addr.Resource), set)
}

// checkResults gathers the check results of a walk by configuration
// object, merging what several rules say about one instance.
type checkResults struct {
	kinds   map[string]plans.CheckableKind
	objects map[string]map[string]*plans.CheckObjectResult
	// unreported are configuration objects with checks that a walk
	// limited by -target or -exclude never reached: their status is
	// unknown and their objects unknown too.
	unreported map[string]bool
}

// declareUnreported adds, as unknown, every configuration object of cfg
// with custom conditions that the walk recorded nothing for, as OpenTofu's
// check state, which knows every checkable object of the configuration
// from the start, reports them after a targeted run.
func (w *walker) declareUnreported(cfg *config.Config) {
	w.results.mu.Lock()
	defer w.results.mu.Unlock()
	c := &w.results.checks
	if c.kinds == nil {
		c.kinds, c.objects = map[string]plans.CheckableKind{}, map[string]map[string]*plans.CheckObjectResult{}
	}
	declare := func(kind plans.CheckableKind, addr string) {
		if _, ok := c.kinds[addr]; ok {
			return
		}
		if c.unreported == nil {
			c.unreported = map[string]bool{}
		}
		c.kinds[addr], c.unreported[addr] = kind, true
	}
	cfg.DeepEach(func(m *config.Config) {
		for _, r := range m.Module.Resources {
			if len(r.Preconditions) > 0 || len(r.Postconditions) > 0 {
				declare(plans.CheckableResource, addrs.ConfigResource{Module: m.Path, Resource: r.Addr()}.String())
			}
		}
		for _, o := range m.Module.Outputs {
			if len(o.Preconditions) > 0 {
				declare(plans.CheckableOutputValue, modulePrefix(m.Path)+"output."+o.Name)
			}
		}
		for _, chk := range m.Module.Checks {
			declare(plans.CheckableCheck, modulePrefix(m.Path)+"check."+chk.Name)
		}
		for _, v := range m.Module.Variables {
			if len(v.Validations) > 0 {
				declare(plans.CheckableInputVariable, modulePrefix(m.Path)+"var."+v.Name)
			}
		}
	})
}

func (w *walker) recordCheckObject(kind plans.CheckableKind, configAddr string, obj plans.CheckObjectResult) {
	w.results.mu.Lock()
	defer w.results.mu.Unlock()
	c := &w.results.checks
	if c.kinds == nil {
		c.kinds, c.objects = map[string]plans.CheckableKind{}, map[string]map[string]*plans.CheckObjectResult{}
	}
	c.kinds[configAddr] = kind
	byObject := c.objects[configAddr]
	if byObject == nil {
		byObject = map[string]*plans.CheckObjectResult{}
		c.objects[configAddr] = byObject
	}
	prev := byObject[obj.ObjectAddr]
	if prev == nil {
		byObject[obj.ObjectAddr] = &obj
		return
	}
	prev.Status = validate.WorseStatus(prev.Status, obj.Status)
	prev.FailureMessages = append(prev.FailureMessages, obj.FailureMessages...)
}

// list returns the results in address order, each configuration object's
// status the worst of its instances'.
func (c *checkResults) list() []plans.CheckResult {
	out := make([]plans.CheckResult, 0, len(c.kinds))
	for _, configAddr := range sortedKeys(c.kinds) {
		result := plans.CheckResult{Kind: c.kinds[configAddr], ConfigAddr: configAddr, Status: plans.CheckPass}
		if c.unreported[configAddr] {
			result.Status = plans.CheckUnknown
		}
		for _, objAddr := range sortedKeys(c.objects[configAddr]) {
			obj := c.objects[configAddr][objAddr]
			result.Status = validate.WorseStatus(result.Status, obj.Status)
			result.Objects = append(result.Objects, *obj)
		}
		out = append(out, result)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ConfigAddr < out[j].ConfigAddr })
	return out
}

func outputRules(module *config.Config, inst addrs.ModuleInstance, o *config.Output) ruleSet {
	return ruleSet{rules: o.Preconditions, summary: "Module output value precondition failed", kind: plans.CheckableOutputValue,
		configAddr: modulePrefix(module.Path) + "output." + o.Name, objectAddr: addrs.OutputValue{Name: o.Name}.Absolute(inst).String()}
}
