package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/internal/version"
)

// File is a state file: the state and the metadata that travels with it.
type File struct {
	// TerraformVersion is the version of the tool that wrote the file.
	// Terraform refuses files claiming a version newer than itself, so
	// exports should name the oldest version whose format they use.
	TerraformVersion string
	// Serial increases with every change of the state; Terraform uses it
	// to refuse overwriting a newer file with an older one.
	Serial uint64
	// Lineage is a UUID naming the history this state belongs to.
	Lineage string
	State   *states.State
	// Unrecorded is set on a file that holds only what a run could not
	// record in its store (errored.tfstate), not a workspace's whole
	// state: pushing it adds its instances to the workspace's records
	// instead of replacing them.
	Unrecorded *Unrecorded
}

// Unrecorded says which run's results a partial state file holds.
type Unrecorded struct {
	// Workspace is the workspace the results belong to.
	Workspace string `json:"workspace"`
	// RunIDs are the runs whose results the file holds; their intents
	// are what the results replace.
	RunIDs []string `json:"run_ids"`
	// Deleted are instances whose objects the runs deleted but could not
	// forget: a state file has no way to say an instance is gone.
	Deleted []string `json:"deleted,omitempty"`
}

// Read reads a state v4 file. Errors name the resource instance or output
// they concern; files of format version 3 or earlier are refused with
// advice to upgrade them with Terraform first.
func Read(r io.Reader) (*File, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading the state file: %w", err)
	}
	if err := checkFormatVersion(src); err != nil {
		return nil, err
	}
	if err := value.CheckJSONNumbers(src); err != nil {
		return nil, fmt.Errorf("the state file holds a number Terrane cannot keep: %w", err)
	}
	var raw stateV4
	if err := json.Unmarshal(src, &raw); err != nil {
		return nil, fmt.Errorf("the state file is not valid state v4 JSON: %w", err)
	}
	file := &File{TerraformVersion: raw.TerraformVersion, Serial: raw.Serial, Lineage: raw.Lineage, State: states.NewState(), Unrecorded: raw.Unrecorded}
	var errs []error
	for i := range raw.Resources {
		errs = append(errs, readResource(file.State, &raw.Resources[i]))
	}
	for name, output := range raw.Outputs {
		val, err := decodeOutput(output)
		if err != nil {
			errs = append(errs, fmt.Errorf("output %q: %w", name, err))
			continue
		}
		file.State.Outputs[name] = &states.OutputValue{Value: val, Sensitive: output.Sensitive}
	}
	if len(raw.CheckResults) > 0 && !bytes.Equal(bytes.TrimSpace(raw.CheckResults), []byte("null")) {
		file.State.CheckResultsJSON = compactJSON(raw.CheckResults)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return file, nil
}

// checkFormatVersion reads only the "version" field, so that files of
// other versions get a message about the version rather than about
// whatever field of theirs v4 does not expect.
func checkFormatVersion(src []byte) error {
	var problems []string
	var header struct {
		Version *uint64 `json:"version"`
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch err := json.Unmarshal(src, &header); {
	case err == nil:
	case errors.As(err, &syntaxErr):
		problems = append(problems, fmt.Sprintf("The state file could not be parsed as JSON: syntax error at byte offset %d.", syntaxErr.Offset))
	case errors.As(err, &typeErr):
		problems = append(problems, fmt.Sprintf("The version in the state file is %s. A positive whole number is required.", typeErr.Value))
	default:
		problems = append(problems, "The state file could not be parsed as JSON.")
	}
	if header.Version == nil {
		// OpenTofu looks for an encryption envelope before giving up.
		var envelope map[string]json.RawMessage
		if err := json.Unmarshal(src, &envelope); err != nil {
			problems = append(problems, "The state file can not be checked for presence of encryption: "+err.Error())
		} else if envelope["encrypted_data"] != nil && envelope["meta"] != nil {
			problems = append(problems, "This state file is encrypted and can not be read without an encryption configuration")
		} else {
			problems = append(problems, `The state file does not have a "version" attribute, which is required to identify the format version.`)
		}
		return formatProblems(problems)
	}
	switch v := *header.Version; {
	case v == 0:
		return formatProblems([]string{"The state file uses JSON syntax but has a version number of zero. There was never a JSON-based state format zero, so this state file is invalid and cannot be processed."})
	case v < 4:
		return fmt.Errorf("the state file has format version %d, written by Terraform 0.11 or earlier; "+
			"upgrade it with terraform 1.x first (terraform init and terraform apply -refresh-only rewrite it as version 4), then import it again", v)
	case v > 4:
		var creator struct {
			TerraformVersion string `json:"terraform_version"`
		}
		_ = json.Unmarshal(src, &creator)
		detail := fmt.Sprintf("The state file uses format version %d, which is not supported by Terrane %s. This state file may have been created by a newer version of Terrane.", v, version.OpenTofuVersion)
		if creator.TerraformVersion != "" {
			detail = fmt.Sprintf("The state file uses format version %d, which is not supported by Terrane %s. This state file was created by Terrane %s.", v, version.OpenTofuVersion, creator.TerraformVersion)
		}
		return formatProblems([]string{detail})
	}
	return nil
}

// formatProblems words unsupported-format problems as OpenTofu's reader
// does: one as "SUMMARY: DETAIL", several as a list.
func formatProblems(details []string) error {
	const summary = "Unsupported state file format"
	if len(details) == 1 {
		return errors.New(summary + ": " + details[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems:\n", len(details))
	for _, d := range details {
		fmt.Fprintf(&b, "\n- %s: %s", summary, d)
	}
	return errors.New(b.String())
}

func decodeOutput(output outputV4) (cty.Value, error) {
	ty, err := ctyjson.UnmarshalType(output.Type)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid type: %w", err)
	}
	val, err := ctyjson.Unmarshal(output.Value, ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("the value does not match its type %s: %w", ty.FriendlyName(), err)
	}
	return val, nil
}

func readResource(state *states.State, raw *resourceV4) error {
	addr, provider, err := resourceAddrs(raw)
	if err != nil {
		return err
	}
	res := state.EnsureResource(addr, provider)
	res.EachMode = states.EachMode(raw.Each)
	var errs []error
	for i := range raw.Instances {
		errs = append(errs, readInstance(state, res, &raw.Instances[i]))
	}
	if len(res.Instances) == 0 {
		// Terraform keeps resources whose instances are all gone only until
		// the end of a run; an empty one in a file carries nothing.
		state.RemoveResourceInstance(addr.Instance(addrs.NoKey))
	}
	return errors.Join(errs...)
}

func resourceAddrs(raw *resourceV4) (addrs.AbsResource, addrs.AbsProviderConfig, error) {
	addr := addrs.AbsResource{Resource: addrs.Resource{Type: raw.Type, Name: raw.Name}}
	switch raw.Mode {
	case "managed":
		addr.Resource.Mode = addrs.ManagedResourceMode
	case "data":
		addr.Resource.Mode = addrs.DataResourceMode
	default:
		return addr, addrs.AbsProviderConfig{}, fmt.Errorf("resource %s.%s: unknown mode %q; it must be \"managed\" or \"data\"", raw.Type, raw.Name, raw.Mode)
	}
	if raw.Module != "" {
		module, diags := addrs.ParseModuleInstanceStr(raw.Module)
		if diags.HasErrors() {
			return addr, addrs.AbsProviderConfig{}, fmt.Errorf("resource %s.%s: invalid module address %q: %s", raw.Type, raw.Name, raw.Module, diags.Error())
		}
		addr.Module = module
	}
	switch raw.Each {
	case "", string(states.EachList), string(states.EachMap):
	default:
		return addr, addrs.AbsProviderConfig{}, fmt.Errorf("resource %s: unknown each mode %q", addr, raw.Each)
	}
	if raw.Provider == "" {
		// The instances name their provider configuration instances.
		provider := instancesProvider(raw)
		if provider.Provider.IsZero() {
			return addr, provider, fmt.Errorf("resource %s: no provider configuration: the resource and its instances name none", addr)
		}
		return addr, provider, nil
	}
	provider, diags := addrs.ParseAbsProviderConfigStr(raw.Provider)
	if diags.HasErrors() {
		return addr, addrs.AbsProviderConfig{}, fmt.Errorf("resource %s: invalid provider configuration address %q (%s); "+
			"files written before Terraform 0.13 use legacy provider addresses: upgrade the state with terraform 1.x first", addr, raw.Provider, diags.Error())
	}
	return addr, provider, nil
}

// instancesProvider is the provider configuration the first instance of a
// resource without one names; the zero address when none does.
func instancesProvider(raw *resourceV4) addrs.AbsProviderConfig {
	for _, inst := range raw.Instances {
		if p, diags := addrs.ParseAbsProviderConfigInstanceStr(inst.Provider); inst.Provider != "" && !diags.HasErrors() {
			return p.Config
		}
	}
	return addrs.AbsProviderConfig{}
}

func readInstance(state *states.State, res *states.Resource, raw *instanceV4) error {
	key, err := instanceKey(raw.IndexKey)
	if err != nil {
		return fmt.Errorf("resource %s: %w", res.Addr, err)
	}
	addr := res.Addr.Instance(key)
	obj, err := readObject(raw)
	if err != nil {
		return fmt.Errorf("resource instance %s: %w", addr, err)
	}
	providerKey := addrs.NoKey
	if raw.Provider != "" {
		provider, diags := addrs.ParseAbsProviderConfigInstanceStr(raw.Provider)
		if diags.HasErrors() {
			return fmt.Errorf("resource instance %s: invalid provider configuration address %q: %s", addr, raw.Provider, diags.Error())
		}
		providerKey = provider.Key
	}
	defer state.SetResourceInstanceProviderKey(addr, providerKey)
	inst := state.ResourceInstance(addr)
	if raw.Deposed == "" {
		if inst != nil && inst.Current != nil {
			return fmt.Errorf("resource instance %s appears more than once in the state file; remove the duplicate", addr)
		}
		state.SetResourceInstanceCurrent(addr, obj, res.ProviderConfig)
		return nil
	}
	deposedKey, err := addrs.ParseDeposedKey(raw.Deposed)
	if err != nil {
		return fmt.Errorf("resource instance %s: %w", addr, err)
	}
	if inst != nil && inst.Deposed[deposedKey] != nil {
		return fmt.Errorf("resource instance %s has deposed object %s more than once in the state file; remove the duplicate", addr, deposedKey)
	}
	state.SetResourceInstanceDeposed(addr, deposedKey, obj, res.ProviderConfig)
	return nil
}

func instanceKey(raw json.RawMessage) (addrs.InstanceKey, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return addrs.NoKey, nil
	}
	var str string
	if err := json.Unmarshal(raw, &str); err == nil {
		return addrs.StringKey(str), nil
	}
	var num int
	if err := json.Unmarshal(raw, &num); err == nil {
		return addrs.IntKey(num), nil
	}
	return nil, fmt.Errorf("invalid index_key %s: it must be a whole number (count) or a string (for_each)", raw)
}

func readObject(raw *instanceV4) (*states.ResourceInstanceObjectSrc, error) {
	obj := &states.ResourceInstanceObjectSrc{
		SchemaVersion:       raw.SchemaVersion,
		AttrsFlat:           raw.AttributesFlat,
		Private:             raw.Private,
		CreateBeforeDestroy: raw.CreateBeforeDestroy,
		SkipDestroy:         raw.SkipDestroy,
		Status:              states.ObjectReady,
	}
	switch {
	case len(raw.Attributes) > 0:
		obj.AttrsJSON = compactJSON(raw.Attributes)
	case raw.AttributesFlat == nil:
		obj.AttrsJSON = []byte("{}")
	}
	switch raw.Status {
	case "":
	case "tainted":
		obj.Status = states.ObjectTainted
	default:
		return nil, fmt.Errorf("unknown status %q; it must be \"tainted\" or absent", raw.Status)
	}
	// A schema version without an identity means nothing (Terraform
	// writes version 0 on every instance); OpenTofu keeps it only with one.
	if len(raw.Identity) > 0 && !bytes.Equal(raw.Identity, []byte("null")) {
		obj.IdentityJSON = compactJSON(raw.Identity)
		if raw.IdentitySchemaVersion != nil {
			obj.IdentitySchemaVersion = *raw.IdentitySchemaVersion
		}
	}
	paths, err := unmarshalPaths(raw.SensitiveAttributes)
	if err != nil {
		return nil, fmt.Errorf("sensitive_attributes: %w", err)
	}
	obj.SensitivePaths = paths
	for _, dep := range raw.Dependencies {
		depAddr, diags := addrs.ParseAbsResourceStr(dep)
		if diags.HasErrors() {
			return nil, fmt.Errorf("invalid dependency %q: %s", dep, diags.Error())
		}
		obj.Dependencies = append(obj.Dependencies, depAddr.Config())
	}
	return obj, nil
}

// compactJSON strips insignificant whitespace, so stored attributes do not
// carry the indentation of the file they came from.
func compactJSON(src []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, src); err != nil {
		return append([]byte(nil), src...)
	}
	return buf.Bytes()
}
