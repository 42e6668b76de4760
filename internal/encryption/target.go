package encryption

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/encryption/method"
	"github.com/terrane/terrane/internal/encryption/method/unencrypted"
)

// Target is one configured target (state, plan, a remote state data
// source): its method chain, primary first, then each fallback. It is safe
// for concurrent use.
type Target struct {
	name  string
	enc   *Encryption
	chain []*MethodConfig

	mu sync.Mutex
	// encryptor encrypts everything this process writes under one set of
	// keys and metadata, as OpenTofu encrypts every write of one run: a key
	// service is asked once, a passphrase derived once.
	encryptor *encryptor
}

// keyCache holds what every target of one configuration shares: the keys
// for each set of stored metadata, and, per method, a decryption it
// succeeded with whose keys may encrypt again when their key providers
// allow (keyprovider.Reusable). A state and a plan target using the same
// method thus derive one key between them.
type keyCache struct {
	mu          sync.Mutex
	decryptions map[string]*decryption
	reuse       map[string]*decryption
}

type encryptor struct {
	method     method.Method
	methodAddr string
	meta       map[string][]byte
}

// decryption is the keys and methods for one set of stored metadata.
type decryption struct {
	mu sync.Mutex
	ev *keyEvaluation
}

// Envelope is encrypted data with what decrypting it needs: the key
// providers' metadata and, for diagnostics, the method that encrypted it.
type Envelope struct {
	Meta   map[string][]byte
	Method string
	Data   []byte
}

func (e *Encryption) newTarget(name string, cfg *TargetConfig) (*Target, hcl.Diagnostics) {
	t := &Target{name: name, enc: e}
	var diags hcl.Diagnostics
	for at := cfg; at != nil; at = at.Fallback {
		mc, mDiags := e.targetMethod(name, at)
		diags = append(diags, mDiags...)
		if mc != nil {
			t.chain = append(t.chain, mc)
		}
		name += ".fallback"
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if cfg.Enforced {
		for _, mc := range t.chain {
			if mc.Type == unencrypted.Name {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unencrypted method is forbidden",
					Detail:  fmt.Sprintf("The %s target is enforced, so it cannot use %s: remove it from the target and its fallbacks, or remove enforced while migrating.", t.name, mc.Addr()),
					Subject: cfg.DeclRange.Ptr()})
			}
		}
	}
	return t, diags
}

// targetMethod resolves a target's method = method.TYPE.NAME.
func (e *Encryption) targetMethod(name string, cfg *TargetConfig) (*MethodConfig, hcl.Diagnostics) {
	if cfg.Method == nil {
		detail := fmt.Sprintf("The %s target needs a method = method.TYPE.NAME argument.", name)
		if cfg.Enforced {
			detail = fmt.Sprintf("Encryption of %s is enforced, so it needs a method = method.TYPE.NAME argument (in the code or in %s).", name, EnvVariable)
		}
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Missing encryption method", Detail: detail, Subject: cfg.DeclRange.Ptr()}}
	}
	var traversal hcl.Traversal
	var diags hcl.Diagnostics
	if vars := cfg.Method.Variables(); len(vars) == 1 {
		traversal = vars[0]
	} else {
		traversal, diags = hcl.AbsTraversalForExpr(cfg.Method)
	}
	invalid := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid encryption method reference",
		Detail: "A target's method is a reference of the form method.TYPE.NAME.", Subject: cfg.Method.Range().Ptr()}
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{invalid}
	}
	typ, okType := attrStep(traversal, 1)
	mname, okName := attrStep(traversal, 2)
	if traversal.RootName() != "method" || !okType || !okName || len(traversal) != 3 {
		return nil, hcl.Diagnostics{invalid}
	}
	for _, mc := range e.cfg.Methods {
		if mc.Type == typ && mc.Name == mname {
			return mc, nil
		}
	}
	return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared encryption method",
		Detail: fmt.Sprintf("There is no method %q %q block in the encryption configuration.", typ, mname), Subject: cfg.Method.Range().Ptr()}}
}

// Name is the target's name in diagnostics ("state", "plan", ...).
func (t *Target) Name() string { return t.name }

// WritesPlain reports whether the primary method is unencrypted: data is
// written as it is.
func (t *Target) WritesPlain() bool { return t == nil || t.chain[0].Type == unencrypted.Name }

// ReadsPlain reports whether unencrypted data may be read: without a
// target, or with the unencrypted method in its chain.
func (t *Target) ReadsPlain() bool {
	if t == nil {
		return true
	}
	for _, mc := range t.chain {
		if mc.Type == unencrypted.Name {
			return true
		}
	}
	return false
}

// PrimaryMethod is the address of the method new data is written with.
func (t *Target) PrimaryMethod() string { return t.chain[0].Addr() }

// Encrypt encrypts plain with the primary method.
func (t *Target) Encrypt(ctx context.Context, plain []byte) (*Envelope, error) {
	enc, err := t.currentEncryptor(ctx)
	if err != nil {
		return nil, err
	}
	data, err := enc.method.Encrypt(ctx, plain)
	if err != nil {
		return nil, fmt.Errorf("%s could not encrypt: %w", enc.methodAddr, err)
	}
	return &Envelope{Meta: enc.meta, Method: enc.methodAddr, Data: data}, nil
}

// CurrentMeta returns the metadata Encrypt writes with and the method it
// uses, preparing the encryption keys if needed.
func (t *Target) CurrentMeta(ctx context.Context) (map[string][]byte, string, error) {
	enc, err := t.currentEncryptor(ctx)
	if err != nil {
		return nil, "", err
	}
	return enc.meta, enc.methodAddr, nil
}

func (t *Target) currentEncryptor(ctx context.Context) (*encryptor, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.encryptor != nil {
		return t.encryptor, nil
	}
	primary := t.chain[0]
	if reuse := t.enc.keys.reusable(primary.Addr()); reuse != nil {
		reuse.mu.Lock()
		meta, from := reuse.ev.meta, maps.Clone(reuse.ev.decKeys)
		reuse.mu.Unlock()
		ev := t.enc.newEvaluation(ctx, reusing, meta)
		ev.from = from
		if m, diags := ev.method(primary); !diags.HasErrors() && m != nil && !ev.notReusable {
			t.encryptor = &encryptor{method: m, methodAddr: primary.Addr(), meta: ev.outMeta}
			return t.encryptor, nil
		}
	}
	ev := t.enc.newEvaluation(ctx, encrypting, nil)
	m, diags := ev.method(primary)
	if diags.HasErrors() {
		return nil, &TargetError{Target: t.name, Err: diags}
	}
	t.encryptor = &encryptor{method: m, methodAddr: primary.Addr(), meta: ev.outMeta}
	t.enc.keys.seed(ctx, t.enc, ev.outMeta, ev.encKeys)
	return t.encryptor, nil
}

// Decrypt decrypts env with the first method of the chain that can, and
// returns which: 0 is the primary method, more a fallback (the data is due
// for re-encryption).
func (t *Target) Decrypt(ctx context.Context, env *Envelope) ([]byte, int, error) {
	d := t.enc.keys.decryptionFor(ctx, t.enc, env.Meta)
	var attempts []Attempt
	for i, mc := range t.chain {
		if mc.Type == unencrypted.Name {
			continue
		}
		m, err := d.method(mc)
		if err == nil {
			var plain []byte
			if plain, err = m.Decrypt(ctx, env.Data); err == nil {
				t.enc.keys.noteReusable(mc.Addr(), d)
				return plain, i, nil
			}
		}
		attempts = append(attempts, Attempt{Method: mc.Addr(), KeyProviders: t.enc.keyProvidersOf(mc), Err: err})
	}
	return nil, -1, &DecryptError{Target: t.name, Stored: env, Attempts: attempts, Chain: t.chainAddrs()}
}

func (d *decryption) method(mc *MethodConfig) (method.Method, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m, diags := d.ev.method(mc)
	if diags.HasErrors() {
		return nil, diagsError(diags)
	}
	return m, nil
}

func (k *keyCache) decryptionFor(ctx context.Context, e *Encryption, meta map[string][]byte) *decryption {
	key := canonicalMeta(meta)
	k.mu.Lock()
	defer k.mu.Unlock()
	d, ok := k.decryptions[key]
	if !ok {
		// The evaluation outlives this call's context: it is shared by
		// every later decryption with the same metadata.
		d = &decryption{ev: e.newEvaluation(context.WithoutCancel(ctx), decrypting, meta)}
		k.decryptions[key] = d
	}
	return d
}

// seed readies the decryption of data written under meta with the keys
// that encrypted it, so a run reads back what it wrote without asking its
// key providers again.
func (k *keyCache) seed(ctx context.Context, e *Encryption, meta map[string][]byte, keys map[string][]byte) {
	if len(keys) == 0 {
		return
	}
	key := canonicalMeta(meta)
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.decryptions[key]; !ok {
		ev := e.newEvaluation(context.WithoutCancel(ctx), decrypting, meta)
		ev.from = keys
		k.decryptions[key] = &decryption{ev: ev}
	}
}

// noteReusable records that method decrypted with d's keys.
func (k *keyCache) noteReusable(method string, d *decryption) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.reuse[method] == nil && len(d.ev.meta) > 0 {
		k.reuse[method] = d
	}
}

func (k *keyCache) reusable(method string) *decryption {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.reuse[method]
}

func (t *Target) chainAddrs() []string {
	out := make([]string, len(t.chain))
	for i, mc := range t.chain {
		out[i] = mc.Addr()
	}
	return out
}

func canonicalMeta(meta map[string][]byte) string {
	// encoding/json writes map keys sorted, so equal maps encode equally.
	out, _ := json.Marshal(meta)
	return string(out)
}
