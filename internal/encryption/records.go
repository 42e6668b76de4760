package encryption

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// recordGroup is the type group of the records the state target covers:
// workspaces, resource instances, outputs and component children.
const recordGroup = "terrane"

// RecordCipher applies a state target to store records (it is an
// encrypted.Cipher). Records of other groups — the store's own bookkeeping
// — pass through as they are.
type RecordCipher struct {
	target *Target
	// readOld holds the names of records read with a fallback method, or
	// read plain while the primary method encrypts: records due for
	// re-encryption.
	readOld sync.Map
}

// NewRecordCipher returns the cipher of target; a nil target stores plain
// records and refuses to read encrypted ones.
func NewRecordCipher(target *Target) *RecordCipher { return &RecordCipher{target: target} }

// Target is the state target the cipher applies, nil when none. A nil
// cipher has none.
func (c *RecordCipher) Target() *Target {
	if c == nil {
		return nil
	}
	return c.target
}

// ReadOld is how many records were read that the primary method did not
// write: they are re-encrypted as they are written, or all at once by
// rewriting them.
func (c *RecordCipher) ReadOld() int {
	if c == nil {
		return 0
	}
	n := 0
	c.readOld.Range(func(any, any) bool { n++; return true })
	return n
}

func (c *RecordCipher) noteOld(res *pbresource.Resource) {
	if c == nil {
		return
	}
	id := res.GetId()
	c.readOld.Store(id.GetType().GetKind()+"\x00"+id.GetTenancy().GetPartition()+"\x00"+id.GetTenancy().GetNamespace()+"\x00"+id.GetName(), true)
}

func covered(res *pbresource.Resource) bool {
	return res.GetId().GetType().GetGroup() == recordGroup && res.GetData() != nil
}

// Seal implements encrypted.Cipher.
func (c *RecordCipher) Seal(ctx context.Context, res *pbresource.Resource) (*anypb.Any, error) {
	if !covered(res) || c.Target().WritesPlain() {
		return res.GetData(), nil
	}
	id := res.GetId()
	plain, err := proto.Marshal(&recordsv1.SealedRecord{Group: id.GetType().GetGroup(), Kind: id.GetType().GetKind(),
		Partition: id.GetTenancy().GetPartition(), Namespace: id.GetTenancy().GetNamespace(), Name: id.GetName(), Data: res.GetData()})
	if err != nil {
		return nil, c.recordError(res, fmt.Errorf("encoding it for encryption: %w", err))
	}
	env, err := c.Target().Encrypt(ctx, plain)
	if err != nil {
		return nil, c.recordError(res, err)
	}
	return anypb.New(&recordsv1.Encrypted{KeyProviderMeta: env.Meta, Method: env.Method, EncryptedData: env.Data, EncryptionVersion: Version})
}

// Open implements encrypted.Cipher.
func (c *RecordCipher) Open(ctx context.Context, res *pbresource.Resource) (*anypb.Any, error) {
	if res.GetData() == nil {
		return nil, nil
	}
	if !res.GetData().MessageIs(&recordsv1.Encrypted{}) {
		if covered(res) && !c.Target().ReadsPlain() {
			return nil, c.recordError(res, fmt.Errorf("%w, and the state target's methods (%s) do not include the unencrypted method", ErrStoredUnencrypted, strings.Join(c.Target().chainAddrs(), ", ")))
		}
		if covered(res) && !c.Target().WritesPlain() {
			c.noteOld(res)
		}
		return res.GetData(), nil
	}
	var stored recordsv1.Encrypted
	if err := res.GetData().UnmarshalTo(&stored); err != nil {
		return nil, c.recordError(res, fmt.Errorf("its encrypted data is damaged: %w", err))
	}
	if c.Target() == nil {
		return nil, c.recordError(res, fmt.Errorf("it is encrypted (%s), and this configuration encrypts no state: add the encryption block (or %s) it was written with", describeStored(&stored), EnvVariable))
	}
	if stored.GetEncryptionVersion() != Version {
		return nil, c.recordError(res, fmt.Errorf("it is encrypted in envelope version %q; only %q is supported", stored.GetEncryptionVersion(), Version))
	}
	plain, index, err := c.Target().Decrypt(ctx, &Envelope{Meta: stored.GetKeyProviderMeta(), Method: stored.GetMethod(), Data: stored.GetEncryptedData()})
	if err != nil {
		return nil, c.recordError(res, err)
	}
	var sealed recordsv1.SealedRecord
	if err := proto.Unmarshal(plain, &sealed); err != nil {
		return nil, c.recordError(res, fmt.Errorf("the decrypted data is damaged: %w", err))
	}
	id := res.GetId()
	if sealed.GetGroup() != id.GetType().GetGroup() || sealed.GetKind() != id.GetType().GetKind() || sealed.GetName() != id.GetName() ||
		sealed.GetPartition() != id.GetTenancy().GetPartition() || sealed.GetNamespace() != id.GetTenancy().GetNamespace() {
		return nil, c.recordError(res, fmt.Errorf("its encrypted data belongs to %s %q of %s/%s: it was copied from another record",
			sealed.GetKind(), sealed.GetName(), sealed.GetPartition(), sealed.GetNamespace()))
	}
	if index > 0 {
		c.noteOld(res)
	}
	return sealed.GetData(), nil
}

// Current implements encrypted.Cipher: a record is current when it is
// plain and the primary method writes plain, or encrypted by the primary
// method under the metadata this process encrypts with.
func (c *RecordCipher) Current(ctx context.Context, res *pbresource.Resource) (bool, error) {
	if !covered(res) {
		return true, nil
	}
	encrypted := res.GetData().MessageIs(&recordsv1.Encrypted{})
	if c.Target().WritesPlain() || !encrypted {
		return c.Target().WritesPlain() && !encrypted, nil
	}
	var stored recordsv1.Encrypted
	if err := res.GetData().UnmarshalTo(&stored); err != nil {
		return false, c.recordError(res, fmt.Errorf("its encrypted data is damaged: %w", err))
	}
	meta, method, err := c.Target().CurrentMeta(ctx)
	if err != nil {
		return false, err
	}
	return stored.GetMethod() == method && maps.EqualFunc(stored.GetKeyProviderMeta(), meta, bytes.Equal), nil
}

// ErrStoredUnencrypted is wrapped by the error for a plain record read
// where the state target has no unencrypted method.
var ErrStoredUnencrypted = errors.New("it is stored unencrypted")

// RecordError names the record that could not be encrypted or decrypted.
type RecordError struct {
	Kind, Name, Project, Workspace string
	Err                            error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("%s record %q of workspace %q (project %q): %s", kindWords(e.Kind), e.Name, e.Workspace, e.Project, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

func (c *RecordCipher) recordError(res *pbresource.Resource, err error) error {
	id := res.GetId()
	return &RecordError{Kind: id.GetType().GetKind(), Name: id.GetName(), Project: id.GetTenancy().GetPartition(), Workspace: id.GetTenancy().GetNamespace(), Err: err}
}

func kindWords(kind string) string {
	switch kind {
	case "ResourceInstance":
		return "resource instance"
	case "ComponentChild":
		return "component child"
	case "Output", "Workspace":
		return map[string]string{"Output": "output", "Workspace": "workspace"}[kind]
	}
	return kind
}

func describeStored(stored *recordsv1.Encrypted) string {
	providers := slices.Sorted(maps.Keys(stored.GetKeyProviderMeta()))
	what := "by " + stored.GetMethod()
	if len(providers) > 0 {
		what += " with key provider metadata " + strings.Join(providers, ", ")
	}
	return what
}

// Diagnostic explains err when it is a record that could not be decrypted
// or must not be read plain: advice about keys or about migrating — never
// the advice to remove the store. ok is false for other errors.
func Diagnostic(err error) (d diags.Diagnostic, ok bool) {
	var recordErr *RecordError
	if !errors.As(err, &recordErr) {
		return d, false
	}
	if errors.Is(err, ErrStoredUnencrypted) {
		return diags.Errorf("Unencrypted state",
			"%s. Nothing was written. To encrypt this workspace, add `method \"unencrypted\" \"migrate\" {}` as a fallback of the state target, then run \"terrane state reencrypt\" (or let runs rewrite the records) and remove the fallback.", recordErr), true
	}
	return diags.Errorf("Failed to decrypt the state",
		"%s. Nothing was written. Give the keys the record was written with: the key provider and method of its encryption, as the state target's method or, while rotating keys, as a fallback.", recordErr), true
}
