package encryption

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/terrane/terrane/internal/encryption/method"
)

// Attempt is one method's failed try at decrypting.
type Attempt struct {
	Method       string
	KeyProviders []string
	Err          error
}

// DecryptError reports that no method of a target's chain could decrypt.
type DecryptError struct {
	Target   string
	Stored   *Envelope
	Attempts []Attempt
	Chain    []string
}

func (e *DecryptError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no method of the %s target could decrypt it", e.Target)
	if e.Stored != nil {
		if providers := slices.Sorted(maps.Keys(e.Stored.Meta)); len(providers) > 0 {
			fmt.Fprintf(&b, " (it was encrypted with key provider metadata %s", strings.Join(providers, ", "))
		} else {
			b.WriteString(" (it carries no key provider metadata")
		}
		if e.Stored.Method != "" {
			fmt.Fprintf(&b, ", by %s", e.Stored.Method)
			if !contains(e.Chain, e.Stored.Method) {
				fmt.Fprintf(&b, ", which the %s target does not list; add it as a fallback", e.Target)
			}
		}
		b.WriteString(")")
	}
	for _, attempt := range e.Attempts {
		fmt.Fprintf(&b, "; %s", attempt.Method)
		if len(attempt.KeyProviders) > 0 {
			fmt.Fprintf(&b, " with %s", strings.Join(attempt.KeyProviders, ", "))
		}
		fmt.Fprintf(&b, ": %s", describeFailure(attempt.Err))
	}
	if len(e.Attempts) == 0 {
		fmt.Fprintf(&b, "; the %s target has only the unencrypted method", e.Target)
	}
	return b.String()
}

func describeFailure(err error) string {
	switch {
	case errors.Is(err, method.ErrAuthentication):
		return "wrong key (another passphrase or key) or altered data"
	case errors.Is(err, method.ErrNoDecryptionKey):
		return "its key providers stored nothing with this data, so it was not encrypted with them"
	}
	return err.Error()
}

func contains(list []string, item string) bool {
	for _, v := range list {
		if v == item {
			return true
		}
	}
	return false
}

// TargetError reports that a target could not prepare its keys.
type TargetError struct {
	Target string
	Err    error
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("preparing the %s target's encryption keys: %s", e.Target, e.Err)
}

func (e *TargetError) Unwrap() error { return e.Err }

// diagsError turns diagnostics into an error with their summaries and
// details.
func diagsError(diags hcl.Diagnostics) error {
	var parts []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			parts = append(parts, strings.TrimSuffix(d.Detail, "."))
		}
	}
	return errors.New(strings.Join(parts, "; "))
}

// keyProvidersOf lists the key providers mc's keys come from, directly or
// through chained key providers.
func (e *Encryption) keyProvidersOf(mc *MethodConfig) []string {
	typ := e.reg.methods[mc.Type]
	if typ == nil {
		return nil
	}
	seen := map[string]bool{}
	var walk func(body hcl.Body, spec hcldec.Spec)
	walk = func(body hcl.Body, spec hcldec.Spec) {
		for _, traversal := range hcldec.Variables(body, spec) {
			kpType, ok1 := attrStep(traversal, 1)
			kpName, ok2 := attrStep(traversal, 2)
			if traversal.RootName() != "key_provider" || !ok1 || !ok2 {
				continue
			}
			kp := e.keyProvider(kpType, kpName)
			if kp == nil || seen[kp.Addr()] {
				continue
			}
			seen[kp.Addr()] = true
			if kpt := e.reg.keyProviders[kp.Type]; kpt != nil {
				walk(kp.Body, kpt.Spec())
			}
		}
	}
	walk(mc.Body, typ.Spec())
	out := make([]string, 0, len(seen))
	for addr := range seen {
		out = append(out, addr)
	}
	sort.Strings(out)
	return out
}
